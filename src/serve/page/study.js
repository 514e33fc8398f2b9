// The result of study mode (/api/study) as paragraphs, for tropa serve's page (app.js): the zone
// search's verdict, the proof, the proof's rounds (its progress) and every first move, each line
// with a button that plays it on the board.

// A paragraph of text, with a button that plays `line` on the board when it has moves.
function studyParagraph(text, line, onPlay) {
  const p = document.createElement('p');
  p.textContent = text + ' ';
  if (line && line.uci.length) {
    const button = document.createElement('button');
    button.textContent = 'Play';
    button.title = line.san.join(' ');
    button.addEventListener('click', () => onPlay(line.uci));
    p.append(line.san.join(' '), ' ', button);
  }
  return p;
}

// Shows `study` in `result`; `onPlay(uciMoves)` plays a line.
export function renderStudy(study, result, onPlay) {
  const zone = study.zone_search;
  result.append(studyParagraph(`Zone search (horizon ${zone.horizon} plies, ${zone.positions} positions): ${zone.verdict}.`, zone.line, onPlay));
  const proof = study.proof;
  result.append(studyParagraph(`Proof: ${proof.summary} (${proof.result.positions} positions).`, proof.result.line, onPlay));
  const rounds = document.createElement('ol');
  rounds.className = 'rounds';
  for (const r of study.rounds) {
    const item = document.createElement('li');
    item.textContent = `${r.move || 'start'}: ${r.mate ? 'a mate within ' : ''}${r.horizon} plies, budget ${r.budget}, ` +
      `${r.positions} positions, ${r.complete ? 'complete' : 'not complete'}, ${r.ms} ms`;
    rounds.append(item);
  }
  result.append(rounds);
  for (const first of study.first_moves) {
    const verdict = first.searched ? first.zone_search.verdict : 'not searched';
    const proven = first.proof ? `; ${first.proof.summary}` : '; no proof tried';
    result.append(studyParagraph(`${first.san}${first.zone_move ? '' : ' (not a zone move)'}: ${verdict}${proven}.`, first.zone_search.line, onPlay));
  }
}
