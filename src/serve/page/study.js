// Study mode (/api/study) for tropa serve's page (app.js): its progress while it runs (a bar and
// the proofs' rounds, live), then the result as paragraphs: the zone search's verdict, the proof,
// the rounds and every first move, each line with a button that plays it on the board.

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

// A round of a proof in words.
function roundText(r) {
  return `${r.move || 'start'}: ${r.mate ? 'a mate within ' : ''}${r.horizon} plies, budget ${r.budget}, ` +
    `${r.positions} positions, ${r.complete ? 'complete' : 'not complete'}, ${r.ms} ms`;
}

// The progress of a running study in `result`: a bar (the share of the running proof's budget
// taken) and the rounds as they end; `status(text)` shows a line beside the button.
export function studyProgress(result, status) {
  const bar = document.createElement('progress');
  bar.id = 'study-progress';
  bar.max = 1;
  bar.value = 0;
  const rounds = document.createElement('ol');
  rounds.className = 'rounds live';
  result.append(bar, rounds);
  let zones = 0;
  return {
    status,
    event(name, data) {
      if (name === 'zone') {
        zones += 1;
        status(`Zone search: ${zones} first moves searched…`);
      } else if (name === 'round') {
        bar.value = data.progress;
        status(`Proof of ${data.move || 'the start position'}: ${Math.round(100 * data.progress)}% of ` +
          `${data.max_positions} positions…`);
        const item = document.createElement('li');
        item.textContent = roundText(data);
        rounds.append(item);
      }
    },
    // The study has ended: its result replaces the progress.
    done() {
      bar.remove();
      rounds.remove();
    },
  };
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
    item.textContent = roundText(r);
    rounds.append(item);
  }
  result.append(rounds);
  for (const first of study.first_moves) {
    const verdict = first.searched ? first.zone_search.verdict : 'not searched';
    const proven = first.proof ? `; ${first.proof.summary}` : '; no proof tried';
    result.append(studyParagraph(`${first.san}${first.zone_move ? '' : ' (not a zone move)'}: ${verdict}${proven}.`, first.zone_search.line, onPlay));
  }
}
