// An annotated game (/api/annotate) on tropa serve's page (app.js): the evaluation graph and the
// comment of a marked move (a mistake's better move, a praised sacrifice's reading).

// The class of a marked move: its judgement (inaccuracy, mistake, blunder) or praise (good,
// brilliant); '' for a move without a mark.
export function markClass(move) {
  return move.judgement || (move.praise ? move.praise.split(' ')[0] : '');
}

// White's winning chances from -1 to +1 for an evaluation, with lichess's curve.
function chances(evaluation) {
  if (!evaluation) return 0;
  if (evaluation.mate !== undefined) return Math.sign(evaluation.mate) || -1;
  return 2 / (1 + Math.exp(-0.00368208 * evaluation.cp)) - 1;
}

// The evaluation graph of an annotated game in `graph` (an SVG): White's chances after each
// move of `state.moves`, the marks as dots, the shown ply as a line; a click calls `onPick(ply)`.
export function renderGraph(graph, state, onPick) {
  const annotated = state.moves.length > 0 && state.moves.every((m) => 'eval' in m);
  // An SVG element has no `hidden`: its style hides it.
  graph.style.display = annotated ? '' : 'none';
  if (!annotated) return;
  const values = [state.startEval, ...state.moves.map((m) => m.eval)].map((e, i) => {
    // A mated side has no evaluation: the mover won.
    if (e === null && i > 0) return state.moves[i - 1].fen.split(' ')[1] === 'w' ? -1 : 1;
    return chances(e);
  });
  const x = (i) => (i / Math.max(1, values.length - 1)) * 480;
  const y = (v) => 50 - v * 48;
  const ns = 'http://www.w3.org/2000/svg';
  const area = document.createElementNS(ns, 'polygon');
  area.setAttribute('points', `0,100 ${values.map((v, i) => `${x(i)},${y(v)}`).join(' ')} 480,100`);
  area.setAttribute('class', 'white-area');
  const middle = document.createElementNS(ns, 'line');
  Object.entries({ x1: 0, y1: 50, x2: 480, y2: 50, class: 'middle' }).forEach(([k, v]) => middle.setAttribute(k, v));
  const cursor = document.createElementNS(ns, 'line');
  Object.entries({ x1: x(state.ply), y1: 0, x2: x(state.ply), y2: 100, class: 'cursor' }).forEach(([k, v]) =>
    cursor.setAttribute(k, v),
  );
  graph.replaceChildren(area, middle, cursor);
  state.moves.forEach((m, i) => {
    if (!m.mark) return;
    const dot = document.createElementNS(ns, 'circle');
    Object.entries({ cx: x(i + 1), cy: y(values[i + 1]), r: 3, class: `mark ${markClass(m)}` }).forEach(([k, v]) =>
      dot.setAttribute(k, v),
    );
    graph.append(dot);
  });
  graph.onclick = (e) => {
    const box = graph.getBoundingClientRect();
    onPick(Math.round(((e.clientX - box.left) / box.width) * (values.length - 1)));
  };
}

// The annotation of `move` (the one that led to the shown position) in `comment`.
export function renderComment(comment, move) {
  comment.replaceChildren();
  if (!move || !move.mark) return;
  const words = [`${move.san}${move.mark}: ${move.judgement || move.praise + ', a sacrifice the search confirms'}.`];
  if (move.better) words.push(`${move.better.san} was best: ${move.better.line.join(' ')}`);
  if (move.idea) words.push(move.idea);
  for (const text of words) {
    const p = document.createElement('p');
    p.textContent = text;
    comment.append(p);
  }
}
