// The drawing of a plan as chessground shapes (`{orig, dest?, brush}`: an arrow, or a circle
// without `dest`), for tropa serve's page (app.js).

// Arrows along a route of squares.
function routeArrows(squares, brush) {
  const arrows = [];
  for (let i = 0; i + 1 < squares.length; i++) {
    if (squares[i] !== squares[i + 1]) arrows.push({ orig: squares[i], dest: squares[i + 1], brush });
  }
  return arrows;
}

// The chosen plan as chessground shapes: its trajectory step by step (green), the target
// (blue circle), a critical square (yellow) and its hinderer (red), the counter-trajectories
// (red when in time, grey when too late), a combination's defender (red circle) and what it
// guards (red arrow).
export function planShapes(plan) {
  const shapes = routeArrows(plan.trajectory, 'green');
  for (const c of plan.counters) shapes.push(...routeArrows(c.trajectory, c.in_time ? 'red' : 'paleGrey'));
  if (plan.goal && plan.goal.square) shapes.push({ orig: plan.goal.square, brush: 'blue' });
  if (plan.critical) {
    shapes.push({ orig: plan.critical.square, brush: 'yellow' });
    shapes.push({ orig: plan.critical.hinderer, brush: 'red' });
  }
  if (plan.combination) {
    const d = plan.combination.defender;
    shapes.push({ orig: d.square, brush: 'red' });
    if (d.guards && d.guards !== d.square) shapes.push({ orig: d.square, dest: d.guards, brush: 'paleRed' });
  }
  return shapes;
}
