// tropa serve's page: the board (chessground), the live search and PIONEER's plans.
//
// Design note: the chess stays on the server. The page asks /api/position and /api/move for the
// legal moves, the SAN and the position after a move, /api/pgn to read a game, /api/annotate to
// review it, /api/plans for the checked plans, and /api/search for the search, a stream of
// Server-Sent Events read with fetch (sse.js: an error's JSON can be shown, and closing the page
// closes the stream, which stops the search). Every answer that is not 200 is shown in the error
// bar. The board draws what it is told: the best move as a blue arrow, the chosen plan as
// chessground's shapes (shapes.js), an annotated mistake's better move as a pale blue arrow.

import { Chessground } from './chessground.min.js';
import { readEvents } from './sse.js';
import { planShapes } from './shapes.js';
import { renderStudy, studyProgress } from './study.js';
import { markClass, renderComment, renderGraph } from './review.js';

const $ = (id) => document.getElementById(id);
const pageId = 'p' + Math.random().toString(36).slice(2, 12);

const state = {
  startFen: null, // where the game (the move list) starts
  moves: [], // [{uci, san, fen}] of the game
  ply: 0, // moves shown played: 0 is the start
  position: null, // the server's answer for the shown position
  plans: [],
  plansFen: null, // the position the plans are of
  studyFen: null, // the position studied last
  chosen: -1, // the plan drawn, or -1
  best: null, // the search's best move (uci) in the shown position
  lines: [], // the search's lines, by multipv
  search: null, // the running search's AbortController
  study: null, // the running study's AbortController
  plansAsked: 0, // the latest plans request, so an older answer is dropped
};

// What the browser test reads: the plans, the shapes asked of the board.
window.tropaPage = { state, shapes: [] };

const board = Chessground($('board'), {
  movable: { free: false, showDests: true, events: { after: onBoardMove } },
  draggable: { enabled: true },
  drawable: { enabled: true, visible: true },
  highlight: { lastMove: true, check: true },
});

function showError(message) {
  const bar = $('error');
  bar.textContent = message;
  bar.hidden = false;
}

function clearError() {
  $('error').hidden = true;
}

// POSTs JSON to the API; the answer, or an Error with the server's message.
async function api(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

function fenShown() {
  return state.ply === 0 ? state.startFen : state.moves[state.ply - 1].fen;
}

// Shows the position after `state.ply` moves: asks the server for its legal moves, then plans
// and (if one runs) a new search.
async function showPly(ply) {
  state.ply = Math.max(0, Math.min(ply, state.moves.length));
  const position = await api('/api/position', { fen: fenShown() });
  state.position = position;
  state.best = null;
  state.lines = [];
  const turn = position.side_to_move;
  const last = state.ply > 0 ? state.moves[state.ply - 1].uci : null;
  board.set({
    fen: position.fen,
    turnColor: turn,
    check: position.check ? turn : false,
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
    movable: { color: position.game_over ? undefined : turn, dests: new Map(Object.entries(position.dests)) },
  });
  $('fen').value = position.fen;
  $('turn').textContent = position.game_over || `${turn} to move`;
  renderMoves();
  renderLines();
  drawShapes();
  requestPlans(position);
  // A study stays with its position: hidden elsewhere, shown again on the way back.
  $('study-result').hidden = state.studyFen !== position.fen;
  $('study-status').hidden = state.studyFen !== position.fen;
  if (state.search) startSearch();
  else searchStatus('Not searching.');
}

async function onBoardMove(orig, dest) {
  clearError();
  const moves = state.position.moves;
  const uci = moves.includes(orig + dest) ? orig + dest : moves.find((m) => m.startsWith(orig + dest + 'q')) || orig + dest;
  try {
    const after = await api('/api/move', { fen: state.position.fen, move: uci });
    state.moves = state.moves.slice(0, state.ply);
    state.moves.push({ uci: after.uci, san: after.san, fen: after.fen });
    await showPly(state.ply + 1);
  } catch (e) {
    showError(e.message);
    await showPly(state.ply);
  }
}

async function setFen() {
  clearError();
  try {
    const position = await api('/api/position', { fen: $('fen').value });
    state.startFen = position.fen;
    state.moves = [];
    await showPly(0);
  } catch (e) {
    showError(e.message);
  }
}

async function loadPgn() {
  clearError();
  try {
    const game = await api('/api/pgn', { pgn: $('pgn').value });
    state.startFen = game.start_fen;
    state.moves = game.moves;
    if (game.skipped.length) showError(`later games skipped: ${game.skipped.join('; ')}`);
    await showPly(game.moves.length);
  } catch (e) {
    showError(e.message);
  }
}

// The moves as a game is written: "1. e4 e5 2. Nf3", from a start with Black to move "1... e5".
function renderMoves() {
  const list = $('moves');
  list.replaceChildren();
  state.moves.forEach((move, i) => {
    const [, turn, , , , number] = (i === 0 ? state.startFen : state.moves[i - 1].fen).split(' ');
    if (turn === 'w' || i === 0) {
      const label = document.createElement('span');
      label.className = 'number';
      label.textContent = turn === 'w' ? `${number}.` : `${number}...`;
      list.append(label);
    }
    const button = document.createElement('button');
    button.textContent = move.san + (move.mark || '');
    button.className = (i + 1 === state.ply ? 'move current' : 'move') + (move.mark ? ' ' + markClass(move) : '');
    button.addEventListener('click', () => showPly(i + 1).catch((e) => showError(e.message)));
    list.append(button);
  });
  renderGraph($('graph'), state, step);
  renderComment($('move-comment'), state.moves[state.ply - 1]);
}

// ---- a game annotated --------------------------------------------------------------------

// The game in the PGN box, annotated by the server (every position searched; the moves marked,
// the better move and PIONEER's word at a mistake); the page then shows it as the game.
async function annotateGame() {
  clearError();
  $('annotate').disabled = true;
  $('annotate-status').textContent = 'Annotating: every position is searched…';
  try {
    const game = await api('/api/annotate', { pgn: $('pgn').value });
    state.startFen = game.start_fen;
    state.startEval = game.start_eval;
    state.moves = game.moves;
    await showPly(0);
    const marked = game.moves.filter((m) => m.mark).length;
    $('annotate-status').textContent = `${game.moves.length} moves, ${marked} marked.`;
  } catch (e) {
    $('annotate-status').textContent = '';
    showError(e.message);
  } finally {
    $('annotate').disabled = false;
  }
}

// ---- the search --------------------------------------------------------------------------

// A score of the side to move as White's: "+0.35", "#3", "-#2".
function scoreText(score, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (score.mate !== undefined) return (score.mate * sign > 0 ? '#' : '-#') + Math.abs(score.mate);
  const cp = score.cp * sign;
  return (cp >= 0 ? '+' : '') + (cp / 100).toFixed(2);
}

function renderLines() {
  const body = $('lines').querySelector('tbody');
  body.replaceChildren();
  const turn = state.position ? state.position.side_to_move : 'white';
  state.lines.forEach((info, i) => {
    if (!info) return;
    const row = document.createElement('tr');
    const [w, d, l] = info.wdl;
    const wdl = turn === 'white' ? [w, d, l] : [l, d, w];
    for (const text of [
      String(i + 1),
      scoreText(info.score, turn),
      wdl.map((p) => `${Math.round(p / 10)}%`).join(' / '),
      info.pv.san.join(' '),
    ]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    body.append(row);
  });
}

function searchStatus(text) {
  $('search-status').textContent = text;
}

function showInfo(info) {
  state.lines[info.multipv - 1] = info;
  if (info.multipv === 1 && info.pv.uci.length) state.best = info.pv.uci[0];
  searchStatus(`depth ${info.depth}/${info.seldepth}, ${info.nodes.toLocaleString()} nodes, ` +
    `${Math.round(info.nps / 1000).toLocaleString()} kn/s`);
  renderLines();
  drawShapes();
}

// Starts a search of the shown position (stopping the page's running one: the server does so
// for a new search of the same page).
async function startSearch() {
  if (state.search) state.search.abort();
  if (state.position.game_over) return searchStopped('Nothing to search: ' + state.position.game_over);
  const control = new AbortController();
  state.search = control;
  state.lines = [];
  const query = new URLSearchParams({ page: pageId, fen: state.position.fen, multipv: $('multipv').value });
  if ($('movetime').value) query.set('movetime', $('movetime').value);
  $('start').disabled = true;
  $('stop').disabled = false;
  searchStatus('Starting…');
  try {
    const response = await fetch('/api/search?' + query, { signal: control.signal });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({}));
      throw new Error(answer.error || `HTTP ${response.status}`);
    }
    await readEvents(response.body, control.signal, onEvent);
  } catch (e) {
    if (control.signal.aborted) return;
    showError(e.message);
  }
  if (state.search === control) searchStopped(null);
}

// What the stream's events do: an `info` updates the lines, the `bestmove` ends the search.
function onEvent(name, data) {
  if (name === 'info') showInfo(data);
  if (name === 'bestmove') {
    if (data.best) state.best = data.best.uci;
    drawShapes();
    searchStopped(data.best ? `Best move ${data.best.san} (depth ${data.depth}).` : 'No move.');
  }
}

function searchStopped(text) {
  state.search = null;
  $('start').disabled = false;
  $('stop').disabled = true;
  if (text) searchStatus(text);
}

async function stopSearch() {
  const control = state.search;
  searchStopped(null);
  try {
    await api('/api/stop', { page: pageId, what: 'search' });
  } catch (e) {
    showError(e.message);
  }
  // The stream ends with its bestmove; the page stops reading after that.
  setTimeout(() => control && control.abort(), 2000);
}

// ---- PIONEER's plans ---------------------------------------------------------------------

async function requestPlans(position) {
  const asked = ++state.plansAsked;
  state.plans = [];
  state.chosen = -1;
  renderPlans();
  drawShapes();
  $('plans-status').textContent = 'Computing the plans…';
  try {
    const answer = await api('/api/plans', { fen: position.fen });
    if (asked !== state.plansAsked) return;
    state.plans = answer.plans;
    state.plansFen = answer.fen;
    $('plans-status').textContent = answer.plans.length
      ? `${answer.plans.length} plans, best first; each first move checked to depth ${answer.check_depth}. Choose one to draw it.`
      : 'PIONEER finds no plan here.';
    renderPlans();
  } catch (e) {
    if (asked !== state.plansAsked) return;
    $('plans-status').textContent = 'No plans.';
    showError(e.message);
  }
}

const STATUS_WORDS = {
  confirmed: 'confirmed',
  not_a_win: 'playable, not a win',
  refuted: 'refuted',
  not_playable: 'not playable now',
};

function renderPlans() {
  const list = $('plans');
  list.replaceChildren();
  state.plans.forEach((plan, i) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.className = `plan ${plan.status}` + (i === state.chosen ? ' chosen' : '');
    button.dataset.index = String(i);
    if (plan.first_move) {
      const first = document.createElement('strong');
      first.textContent = plan.first_move.san;
      button.append(first, ': ');
    }
    button.append(plan.text);
    const verdict = document.createElement('span');
    verdict.className = 'verdict';
    verdict.textContent = ` — ${plan.side}, ${STATUS_WORDS[plan.status] || plan.status}`;
    button.append(verdict);
    button.addEventListener('click', () => choosePlan(i));
    item.append(button);
    list.append(item);
  });
  renderPlanDetail();
}

function choosePlan(index) {
  state.chosen = state.chosen === index ? -1 : index;
  for (const button of $('plans').querySelectorAll('button.plan')) {
    button.classList.toggle('chosen', Number(button.dataset.index) === state.chosen);
  }
  drawShapes();
  renderPlanDetail();
}

function renderPlanDetail() {
  const detail = $('plan-detail');
  detail.replaceChildren();
  const plan = state.plans[state.chosen];
  if (!plan) return;
  const lines = [
    plan.text,
    `${plan.kind} by the ${plan.piece}: ${plan.trajectory.join('–')} in ${plan.duration} move(s); zone verdict: ${plan.verdict}.`,
    `Attack: ${plan.attack}; goal: ${plan.goal.kind}${plan.goal.square ? ' on ' + plan.goal.square : ''}.`,
  ];
  if (plan.combination) {
    const d = plan.combination.defender;
    lines.push(`Combination (${plan.combination.method}): the ${d.piece} on ${d.square} ${d.text}.`);
  }
  for (const c of plan.counters) lines.push(`Counter${c.in_time ? ' in time' : ', too late'}: ${c.text}`);
  for (const s of plan.supports) lines.push(`Support${s.in_time ? ' in time' : ', too late'}: ${s.text}`);
  if (plan.line && plan.line.san.length) lines.push(`The search's line: ${plan.line.san.join(' ')}`);
  for (const text of lines) {
    const p = document.createElement('p');
    p.textContent = text;
    detail.append(p);
  }
}

// The shapes of the chosen plan, the best move and an annotated mistake's better move, each
// once (chessground draws a shape that comes twice once).
function drawShapes() {
  const all = [];
  const plan = state.plans[state.chosen];
  if (plan) all.push(...planShapes(plan));
  if (state.best) all.push({ orig: state.best.slice(0, 2), dest: state.best.slice(2, 4), brush: 'blue' });
  // Before a marked move of an annotated game, the better move.
  const marked = state.moves[state.ply];
  if (marked && marked.better) {
    const uci = marked.better.uci;
    all.push({ orig: uci.slice(0, 2), dest: uci.slice(2, 4), brush: 'paleBlue' });
  }
  const seen = new Set();
  const shapes = all.filter((shape) => {
    const key = `${shape.orig}${shape.dest || ''}${shape.brush}`;
    return !seen.has(key) && seen.add(key);
  });
  window.tropaPage.shapes = shapes;
  board.setAutoShapes(shapes);
}

// ---- study mode ----------------------------------------------------------------------------

// Plays a line of UCI moves from the shown position: asks the server for each move's SAN and
// position, makes the line the game's continuation and shows its first move.
async function playLine(line) {
  let fen = fenShown();
  const moves = [];
  for (const move of line) {
    const after = await api('/api/move', { fen, move });
    moves.push({ uci: after.uci, san: after.san, fen: after.fen });
    fen = after.fen;
  }
  state.moves = state.moves.slice(0, state.ply).concat(moves);
  await showPly(state.ply + 1);
}

// Runs PIONEER's study mode on the shown position, streamed: each proof round as it ends (the
// bar fills with the share of the proof's budget taken), then the verdicts, the proof and every
// first move; each line can be played on the board.
async function studyPosition() {
  clearError();
  if (state.study) state.study.abort();
  const control = new AbortController();
  state.study = control;
  const result = $('study-result');
  result.replaceChildren();
  result.hidden = false;
  $('study-status').hidden = false;
  state.studyFen = null;
  $('study').disabled = true;
  $('study-stop').disabled = false;
  const progress = studyProgress(result, (text) => { $('study-status').textContent = text; });
  progress.status('Studying: the zone search…');
  const query = new URLSearchParams({ page: pageId, fen: state.position.fen });
  if ($('leaf-depth').value) query.set('leaf_depth', $('leaf-depth').value);
  try {
    const response = await fetch('/api/study?' + query, { signal: control.signal });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({}));
      throw new Error(answer.error || `HTTP ${response.status}`);
    }
    await readEvents(response.body, control.signal, (name, data) => {
      if (name !== 'study') return progress.event(name, data);
      progress.done();
      state.studyFen = data.fen;
      renderStudy(data, result, (line) => playLine(line).catch((e) => showError(e.message)));
      progress.status(`${data.rounds.length} proof rounds${data.stopped ? ', stopped' : ''}.`);
    });
  } catch (e) {
    if (!control.signal.aborted) {
      progress.status('');
      showError(e.message);
    }
  }
  if (state.study === control) studyStopped();
}

function studyStopped() {
  state.study = null;
  $('study').disabled = false;
  $('study-stop').disabled = true;
}

// Stops the page's study: the server ends it and sends what it had, as not proven.
async function stopStudy() {
  try {
    await api('/api/stop', { page: pageId, what: 'study' });
  } catch (e) {
    showError(e.message);
  }
}

// ---- wiring ------------------------------------------------------------------------------

function step(ply) {
  clearError();
  showPly(ply).catch((e) => showError(e.message));
}

$('set-fen').addEventListener('click', setFen);
$('fen').addEventListener('keydown', (e) => e.key === 'Enter' && setFen());
$('load-pgn').addEventListener('click', loadPgn);
$('annotate').addEventListener('click', annotateGame);
$('study').addEventListener('click', studyPosition);
$('study-stop').addEventListener('click', stopStudy);
$('first').addEventListener('click', () => step(0));
$('back').addEventListener('click', () => step(state.ply - 1));
$('forward').addEventListener('click', () => step(state.ply + 1));
$('last').addEventListener('click', () => step(state.moves.length));
$('flip').addEventListener('click', () => board.toggleOrientation());
$('start').addEventListener('click', () => {
  clearError();
  startSearch();
});
$('stop').addEventListener('click', stopSearch);
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
  const keys = {
    ArrowLeft: () => step(state.ply - 1),
    ArrowRight: () => step(state.ply + 1),
    Home: () => step(0),
    End: () => step(state.moves.length),
    f: () => board.toggleOrientation(),
  };
  if (keys[e.key]) {
    e.preventDefault();
    keys[e.key]();
  }
});
// Closing the page closes its streams, which stops its search and study; the beacon says so at
// once.
window.addEventListener('pagehide', () => {
  if (state.search || state.study) navigator.sendBeacon('/api/stop', JSON.stringify({ page: pageId }));
});

api('/api/position', {})
  .then((position) => {
    state.startFen = position.fen;
    return showPly(0);
  })
  .catch((e) => showError(e.message));
