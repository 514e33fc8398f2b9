// tropa serve's page in a real browser: headless Chromium (Debian's) driven by playwright-core.
//
// Usage: node serve_page.mjs URL OUT_DIR, with playwright-core installed under OUT_DIR
// (tests/browser/run.sh does it all). It loads the page and checks its first paint (< 1 s),
// sets Réti's study by the FEN box, plays Kh8–g7 by clicking the king and its square, waits
// for Black's plans, chooses the plan with the most arrows and checks that chessground drew
// them (one SVG line per arrow, the trajectory's steps in green) within 200 ms of the choice,
// runs a one-second search and checks its lines and its best-move arrow, saves a screenshot to
// OUT_DIR/plan.png, runs study mode (its progress shown live, then stopped; again with the zone
// model alone) and plays one of its lines on the board (OUT_DIR/study.png),
// checks that a bad FEN is shown as an error, and annotates a short game with a blunder,
// checking its mark, the graph and the comment (OUT_DIR/annotate.png). Any failure ends it with
// a message and exit status 1.

import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [url, outDir] = process.argv.slice(2);
if (!url || !outDir) {
  console.error('usage: node serve_page.mjs URL OUT_DIR');
  process.exit(2);
}
const require = createRequire(join(resolve(outDir), 'package.json'));
const { chromium } = require('playwright-core');

const RETI = '7K/8/k1P5/7p/8/8/8/8 w - - 0 1';
// chessground's colours of the brushes the page uses for a trajectory.
const GREEN = '#15781B';

function check(condition, message) {
  if (!condition) throw new Error(message);
}

// Clicks the centre of a square of the board, seen from White.
async function clickSquare(page, square) {
  const box = await page.locator('cg-board').boundingBox();
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const size = box.width / 8;
  await page.mouse.click(box.x + (file + 0.5) * size, box.y + (7 - rank + 0.5) * size);
}

async function run(page) {
  const started = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelectorAll('cg-board piece').length === 32);
  const paint = await page.evaluate(() => {
    const entry = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
    return entry ? entry.startTime : null;
  });
  check(paint !== null && paint < 1000, `first contentful paint ${paint} ms, not under 1000 ms`);
  console.log(`first contentful paint: ${paint.toFixed(0)} ms (page with pieces in ${Date.now() - started} ms)`);

  await page.fill('#fen', RETI);
  await page.press('#fen', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('cg-board piece').length === 4);
  await page.waitForFunction((fen) => window.tropaPage.state.position?.fen === fen, RETI);

  await clickSquare(page, 'h8');
  await clickSquare(page, 'g7');
  await page.waitForFunction(() => window.tropaPage.state.moves.length === 1);
  const played = await page.evaluate(() => window.tropaPage.state.moves[0].san);
  check(played === 'Kg7', `the move played is ${played}, not Kg7`);
  console.log('played Kg7 by clicking the king and g7');

  // The plans of the position after the move, not those of the one before.
  await page.waitForFunction(
    () => {
      const { plans, plansFen, position } = window.tropaPage.state;
      return plans.length > 0 && position.side_to_move === 'black' && plansFen === position.fen;
    },
    null,
    { timeout: 30000 },
  );
  const choice = await page.evaluate(() => {
    const plans = window.tropaPage.state.plans;
    const arrows = (p) => p.trajectory.length - 1 + p.counters.reduce((n, c) => n + c.trajectory.length - 1, 0);
    let best = 0;
    plans.forEach((p, i) => {
      if (arrows(p) > arrows(plans[best])) best = i;
    });
    return { index: best, steps: plans[best].trajectory.length - 1, text: plans[best].text, count: plans.length };
  });
  console.log(`${choice.count} plans; choosing "${choice.text}"`);

  // The choice and the drawing, timed inside the page: click, then frames until the arrows
  // are in chessground's SVG.
  const drawn = await page.evaluate(async (index) => {
    const button = document.querySelector(`button.plan[data-index="${index}"]`);
    const start = performance.now();
    button.click();
    const expected = () => window.tropaPage.shapes.filter((s) => s.dest).length;
    const lines = () => document.querySelectorAll('cg-container svg.cg-shapes line').length;
    while (lines() < expected() && performance.now() - start < 2000) {
      await new Promise((r) => requestAnimationFrame(r));
    }
    return { ms: performance.now() - start, lines: lines(), arrows: expected() };
  }, choice.index);
  check(drawn.arrows > 0, 'the chosen plan has no arrow');
  check(drawn.lines === drawn.arrows, `${drawn.lines} arrows drawn, ${drawn.arrows} asked for`);
  check(drawn.ms < 200, `the plan was drawn ${drawn.ms.toFixed(0)} ms after its choice, not within 200 ms`);
  const green = await page.evaluate(
    (colour) => [...document.querySelectorAll('cg-container svg.cg-shapes line')]
      .filter((l) => (l.getAttribute('stroke') || '').toUpperCase() === colour).length,
    GREEN,
  );
  check(green === choice.steps, `${green} green arrows, but the trajectory has ${choice.steps} steps`);
  const detail = await page.textContent('#plan-detail');
  check(detail.includes(choice.text), 'the plan\'s text is not shown beside the board');
  console.log(`plan drawn in ${drawn.ms.toFixed(0)} ms: ${drawn.lines} arrows, ${green} on its trajectory`);

  await page.selectOption('#movetime', '1000');
  await page.click('#start');
  await page.waitForFunction(() => /Best move/.test(document.querySelector('#search-status').textContent), null, {
    timeout: 20000,
  });
  const rows = await page.locator('#lines tbody tr').count();
  check(rows >= 1, 'the search showed no line');
  const best = await page.evaluate(() => window.tropaPage.shapes.some((s) => s.brush === 'blue' && s.dest));
  check(best, 'no best-move arrow');
  console.log(`search: ${rows} lines, ${await page.textContent('#search-status')}`);

  await page.waitForTimeout(400); // the board's move animation
  await page.screenshot({ path: join(outDir, 'plan.png') });
  console.log(`screenshot: ${join(outDir, 'plan.png')}`);

  // Study mode on the position after Kg7: with the default leaf search its rounds appear while
  // it runs, the bar filling, and Stop ends it; then with the zone model alone (leaf depth 0)
  // to its end, and its proven line played on the board.
  await page.click('#study');
  await page.waitForFunction(
    () => document.querySelectorAll('#study-result .rounds.live li').length > 0 &&
      document.querySelector('#study-progress').value > 0,
    null,
    { timeout: 30000 },
  );
  const live = await page.evaluate(() => ({
    rounds: document.querySelectorAll('#study-result .rounds.live li').length,
    bar: document.querySelector('#study-progress').value,
    status: document.querySelector('#study-status').textContent,
  }));
  await page.click('#study-stop');
  await page.waitForFunction(() => /stopped/.test(document.querySelector('#study-status').textContent), null, {
    timeout: 10000,
  });
  console.log(`study mode live: ${live.rounds} rounds shown, bar at ${(100 * live.bar).toFixed(0)}% ("${live.status}"), then stopped`);
  await page.fill('#leaf-depth', '0');
  await page.click('#study');
  await page.waitForFunction(() => /proof rounds\.$/.test(document.querySelector('#study-status').textContent), null, {
    timeout: 30000,
  });
  const proofText = await page.textContent('#study-result');
  check(/Proof: /.test(proofText), `study mode shows no proof: ${proofText.slice(0, 200)}`);
  const before = await page.evaluate(() => window.tropaPage.state.moves.length);
  await page.locator('#study-result button', { hasText: 'Play' }).first().click();
  // The line's first move shown (and in the same task its plans asked for, no plan chosen):
  // the old plan's arrows are gone.
  await page.waitForFunction(
    (n) => {
      const { moves, ply, position } = window.tropaPage.state;
      return moves.length > n && ply === n + 1 && position.fen === moves[n].fen;
    },
    before,
  );
  const stale = await page.evaluate(() => window.tropaPage.shapes.length);
  check(stale === 0, `${stale} shapes of the position before are still drawn`);
  check(!(await page.locator('#graph').isVisible()), 'an evaluation graph without an annotated game');
  await page.waitForTimeout(400); // the board's move animation
  await page.screenshot({ path: join(outDir, 'study.png'), fullPage: true });
  console.log(`study mode: ${(await page.textContent('#study-status')).trim()} A line played on the board.`);

  await page.fill('#fen', 'not a fen');
  await page.press('#fen', 'Enter');
  await page.waitForSelector('#error:not([hidden])');
  const error = await page.textContent('#error');
  check(/bad FEN/.test(error), `a bad FEN shows "${error}"`);
  console.log(`a bad FEN is shown: ${error}`);

  await page.fill('#pgn', '1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0');
  await page.click('#annotate');
  await page.waitForFunction(() => /marked/.test(document.querySelector('#annotate-status').textContent), null, {
    timeout: 30000,
  });
  const blunder = await page.locator('#moves button.move.blunder').allTextContents();
  check(blunder.includes('Nf6??'), `the blunder 3...Nf6 is not marked: ${blunder}`);
  check(await page.locator('#graph circle.mark').count() >= 1, 'no mark on the evaluation graph');
  check(await page.locator('#graph').isVisible(), 'the evaluation graph is not shown');
  await page.locator('#moves button', { hasText: 'Nf6??' }).click();
  await page.waitForSelector('#move-comment p');
  const comment = await page.textContent('#move-comment');
  check(/was best/.test(comment), `the comment of the blunder: "${comment}"`);
  await page.waitForTimeout(400); // the board's move animation
  await page.screenshot({ path: join(outDir, 'annotate.png') });
  console.log(`annotated: ${blunder.join(', ')} marked; ${comment.slice(0, 80)}…`);
}

const profile = mkdtempSync(join(tmpdir(), 'tropa-browser-'));
let failed = false;
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 900 },
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(15000);
  page.on('pageerror', (e) => {
    failed = true;
    console.error(`page error: ${e.message}`);
  });
  await run(page);
} catch (e) {
  failed = true;
  console.error(`browser test failed: ${e.message}`);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.log('browser test passed');
