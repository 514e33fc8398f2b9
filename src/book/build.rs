//! Building a book from games: keep the moves played often enough, rate the leaves with Tropa's
//! own search blended with the games' results, minimax, and lay the tree out as LIB/SON/BRAT.
//!
//! Design note: a move is kept when the position it leads to occurred in at least `min_games`
//! games within the first `plies` plies, counting transpositions (the same position reached by
//! another move order counts too); a game's line stops at its first move that is not kept. Only
//! Yudin's five trees are built: games opening with another move than 1.e4, 1.d4, 1.c4, 1.g3
//! or 1.Nf3 are counted and left out. The tree is first gathered as a trie, then written in
//! depth-first order with the most played reply first, so links point forward and the result
//! does not depend on the order of the games. Every distinct leaf position is rated on its own
//! by a rater that keeps nothing between positions, so the book is the same whichever thread
//! rated what: the build is reproducible byte for byte (for a given Tropa).
//!
//! The book knows nothing of the search: the caller hands `build` a `LeafRater` per thread
//! (the command line's is Tropa's search to a fixed depth), so the dependency points from the
//! tools to the book and never back.

use super::code::MoveCode;
use super::pgn::{read_pgn, Opening, PgnFile};
use super::rating::SCORE_LIMIT;
use super::tree::{Book, ROOT};
use crate::rules::{legal_moves, repetition_key, Board, Color, Game, Move};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// White's first moves that root Yudin's five trees (docs/sources.md#opening-library).
pub const TREE_ROOTS: [&str; 5] = ["e2e4", "d2d4", "c2c4", "g2g3", "g1f3"];

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// PGN files.
    pub files: Vec<PathBuf>,
    /// Depth of the variations in plies.
    pub plies: usize,
    /// A move is kept when its position occurred in at least this many games.
    pub min_games: u32,
    /// Threads (one leaf rater each).
    pub threads: usize,
}

/// What scores a leaf position of the book; one per thread, made by the caller. It must keep
/// nothing from one position to the next, or the build would depend on which thread rated what.
pub trait LeafRater {
    /// The score in centipawns, from the side to move's view, of the current position of
    /// `game` (which has at least one legal move).
    fn rate(&mut self, game: &Game) -> i32;
}

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    /// Games read from the standard start position.
    pub games: usize,
    /// Of those, games in the five trees.
    pub in_trees: usize,
    /// Games skipped: set-up positions or other variants.
    pub other_start: usize,
    /// Games opening outside the five trees.
    pub other_first_move: usize,
    /// Games skipped for illegal or malformed moves, with their messages.
    pub rejected: Vec<String>,
    /// Games without moves (often left behind by a malformed tag line).
    pub empty: usize,
    /// Leaf positions searched (transpositions searched once).
    pub searched: usize,
}

struct TrieNode {
    mv: Option<Move>,
    code: Option<MoveCode>,
    children: Vec<usize>,
    through: u32,
    games: u32,
    points: u32,
}

/// Gathers the kept lines into a trie (index 0 is the start position).
fn gather(openings: &[&Opening], plies: usize, min_games: u32) -> Vec<TrieNode> {
    let mut seen: HashMap<u64, u32> = HashMap::new();
    for o in openings {
        let mut board = Board::default();
        let mut keys = Vec::with_capacity(plies);
        for &mv in o.moves.iter().take(plies) {
            board.play_unchecked(mv);
            keys.push(repetition_key(&board));
        }
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            *seen.entry(k).or_default() += 1;
        }
    }
    let mut trie = vec![TrieNode {
        mv: None,
        code: None,
        children: Vec::new(),
        through: 0,
        games: 0,
        points: 0,
    }];
    for o in openings {
        let mut board = Board::default();
        let mut path = vec![0usize];
        for &mv in o.moves.iter().take(plies) {
            let code = MoveCode::encode(&board, mv);
            board.play_unchecked(mv);
            if seen.get(&repetition_key(&board)).copied().unwrap_or(0) < min_games {
                break;
            }
            let parent = *path.last().unwrap();
            let existing = trie[parent]
                .children
                .iter()
                .copied()
                .find(|&c| trie[c].code == Some(code));
            let child = existing.unwrap_or_else(|| {
                trie.push(TrieNode {
                    mv: Some(mv),
                    code: Some(code),
                    children: Vec::new(),
                    through: 0,
                    games: 0,
                    points: 0,
                });
                let new = trie.len() - 1;
                trie[parent].children.push(new);
                new
            });
            path.push(child);
        }
        for &n in &path {
            trie[n].through += 1;
            if let Some(result) = o.result {
                trie[n].games += 1;
                trie[n].points += result.white_points();
            }
        }
    }
    trie
}

/// Lays the trie out as the book's arrays, depth first, most played reply first.
fn lay_out(trie: &[TrieNode], plies: usize) -> (Book, Vec<Board>) {
    let mut book = Book::new(plies.min(u16::MAX as usize) as u16);
    let mut boards = vec![Board::default()];
    // Stack of (trie node, book node of its parent, board before its move).
    let order = |t: usize| {
        let mut c = trie[t].children.clone();
        c.sort_by_key(|&k| (std::cmp::Reverse(trie[k].through), trie[k].code));
        c
    };
    let mut stack: Vec<(usize, u32, Board)> = order(0)
        .into_iter()
        .rev()
        .map(|c| (c, ROOT, Board::default()))
        .collect();
    book.add_games(ROOT, trie[0].games, trie[0].points);
    while let Some((t, parent, board)) = stack.pop() {
        let node = &trie[t];
        let (Some(code), Some(mv)) = (node.code, node.mv) else {
            continue;
        };
        let index = book.add_reply(parent, code);
        book.add_games(index, node.games, node.points);
        let mut after = board;
        after.play_unchecked(mv);
        boards.push(after.clone());
        for c in order(t).into_iter().rev() {
            stack.push((c, index, after.clone()));
        }
    }
    (book, boards)
}

/// The tree of the openings in the five trees, laid out as a book but not yet rated (every
/// leaf's search score is 0), with the position after every node and the number of openings in
/// the trees. The moves must be legal (as `pgn` reads them).
pub fn unrated_tree(
    openings: &[&Opening],
    plies: usize,
    min_games: u32,
) -> (Book, Vec<Board>, usize) {
    let roots: Vec<Move> = TREE_ROOTS.iter().map(|m| m.parse().unwrap()).collect();
    let in_trees: Vec<&Opening> = openings
        .iter()
        .copied()
        .filter(|o| o.moves.first().is_some_and(|m| roots.contains(m)))
        .collect();
    let trie = gather(&in_trees, plies, min_games.max(1));
    let (book, boards) = lay_out(&trie, plies);
    (book, boards, in_trees.len())
}

/// The score of a position from White's view, clamped to the book's range.
fn rate_position(rater: &mut dyn LeafRater, game: &Game) -> i32 {
    let board = game.board();
    let white = |score: i32| {
        let s = score.clamp(-SCORE_LIMIT, SCORE_LIMIT);
        if board.side_to_move() == Color::White {
            s
        } else {
            -s
        }
    };
    if legal_moves(board).is_empty() {
        return if board.checkers().is_empty() {
            0
        } else {
            white(-SCORE_LIMIT)
        };
    }
    white(rater.rate(game))
}

/// A PGN file read: `Err` if the file cannot be read at all, else its games or why none is usable.
type FileRead = Result<Result<PgnFile, String>, String>;

fn read_games(path: &std::path::Path, plies: usize) -> FileRead {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(read_pgn(&bytes, &path.display().to_string(), plies))
}

/// Builds a book; `new_rater` makes each thread's leaf rater, `progress(done, total)` is called
/// now and then while the leaves are rated and `warn` gets every skipped game's message.
pub fn build(
    config: &BuildConfig,
    new_rater: &(dyn Fn() -> Box<dyn LeafRater> + Sync),
    progress: &mut dyn FnMut(usize, usize),
    warn: &mut dyn FnMut(&str),
) -> Result<(Book, BuildReport), String> {
    if config.plies == 0 || config.plies > 100 {
        return Err("--plies must be between 1 and 100".into());
    }
    if config.files.is_empty() {
        return Err("no PGN file given".into());
    }
    let threads = config.threads.max(1);
    // Read the files in parallel, a file per thread at a time.
    let next = AtomicUsize::new(0);
    let read: Vec<Mutex<Option<FileRead>>> =
        config.files.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.min(config.files.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = config.files.get(i) else {
                    break;
                };
                *read[i].lock().unwrap() = Some(read_games(path, config.plies));
            });
        }
    });
    let mut report = BuildReport::default();
    let mut files = Vec::new();
    for slot in read {
        // A file that cannot be read is a mistake in the command; one without a usable game
        // only costs its games.
        let file = match slot.into_inner().unwrap().expect("every file was read")? {
            Ok(file) => file,
            Err(e) => {
                warn(&format!("skipped {e}"));
                continue;
            }
        };
        report.other_start += file.other_start;
        report.empty += file.empty;
        for r in &file.rejected {
            warn(&format!("skipped {r}"));
        }
        report.rejected.extend(file.rejected.iter().cloned());
        files.push(file);
    }
    let openings: Vec<&Opening> = files.iter().flat_map(|f| f.openings.iter()).collect();
    if openings.is_empty() {
        return Err("no usable game in the PGN files".into());
    }
    let (mut book, boards, in_trees) = unrated_tree(&openings, config.plies, config.min_games);
    report.games = openings.len();
    report.in_trees = in_trees;
    report.other_first_move = report.games - report.in_trees;
    if book.is_empty() {
        return Err("no move was played often enough: the book would be empty".into());
    }

    // Rate the leaves: one search per distinct leaf position.
    let mut unique: Vec<u32> = Vec::new();
    let mut first_of: HashMap<u64, usize> = HashMap::new();
    let mut leaf_slot: Vec<(u32, usize)> = Vec::new();
    for node in 1..book.len() as u32 {
        if book.replies(node).next().is_some() {
            continue;
        }
        let key = repetition_key(&boards[node as usize]);
        let slot = *first_of.entry(key).or_insert_with(|| {
            unique.push(node);
            unique.len() - 1
        });
        leaf_slot.push((node, slot));
    }
    let lines = leaf_lines(&book);
    report.searched = unique.len();
    let scores: Vec<Mutex<i32>> = unique.iter().map(|_| Mutex::new(0)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut rater = new_rater();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&node) = unique.get(i) else {
                        break;
                    };
                    let mut game = Game::new();
                    for &mv in &lines[&node] {
                        game.play(mv);
                    }
                    *scores[i].lock().unwrap() = rate_position(rater.as_mut(), &game);
                    done.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        let mut last = Instant::now();
        progress(0, unique.len());
        while done.load(Ordering::Relaxed) < unique.len() {
            std::thread::sleep(Duration::from_millis(20));
            if last.elapsed() >= Duration::from_millis(250) {
                progress(done.load(Ordering::Relaxed), unique.len());
                last = Instant::now();
            }
        }
        progress(unique.len(), unique.len());
    });
    for (node, slot) in leaf_slot {
        book.set_eval(node, *scores[slot].lock().unwrap());
    }
    book.minimax();
    book.check()
        .map_err(|e| format!("internal error, the built tree is invalid: {e}"))?;
    Ok((book, report))
}

/// The moves from the start to every leaf.
fn leaf_lines(book: &Book) -> HashMap<u32, Vec<Move>> {
    let mut line: Vec<Vec<Move>> = vec![Vec::new(); book.len()];
    let mut out = HashMap::new();
    for node in 0..book.len() as u32 {
        let mut any = false;
        for c in book.replies(node) {
            let mut l = line[node as usize].clone();
            l.push(book.mv(c));
            line[c as usize] = l;
            any = true;
        }
        if !any && node != ROOT {
            out.insert(node, std::mem::take(&mut line[node as usize]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rater that keeps nothing: the static evaluation.
    struct StaticEval;

    impl LeafRater for StaticEval {
        fn rate(&mut self, game: &Game) -> i32 {
            crate::eval::evaluate(game.board())
        }
    }

    fn static_eval() -> Box<dyn LeafRater> {
        Box::new(StaticEval)
    }

    fn write(dir: &std::path::Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn builds_counts_transpositions_and_is_reproducible() {
        let dir = std::env::temp_dir().join(format!("tropa-build-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // 1.Nf3 d5 2.d4 was played once, but it transposes into 1.d4 d5 2.Nf3, so every
        // position on its way occurred in two games and with min-games 2 it is kept to ply 4.
        // 1.Nf3 d5 2.c4 occurred once and is cut. 1.b3 is outside the five trees.
        let a = write(
            &dir,
            "a.pgn",
            "[Result \"1-0\"]\n\n1. Nf3 d5 2. d4 Nf6 1-0\n\n[Result \"0-1\"]\n\n1. Nf3 d5 2. c4 0-1\n\n\
             1. d4 d5 2. Nf3 Nf6 1-0\n\n1. d4 d5 2. c4 0-1\n\n",
        );
        let b = write(
            &dir,
            "b.pgn",
            "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n1. b3 e5 *\n\n1. e4 e4 *\n",
        );
        let config = BuildConfig {
            files: vec![a.clone(), b.clone()],
            plies: 12,
            min_games: 2,
            threads: 2,
        };
        let (book, report) = build(&config, &static_eval, &mut |_, _| {}, &mut |_| {}).unwrap();
        assert_eq!(
            (report.games, report.in_trees, report.other_first_move),
            (7, 6, 1)
        );
        assert_eq!(report.rejected.len(), 1);
        assert!(
            report.rejected[0].contains("game 4"),
            "{:?}",
            report.rejected
        );
        book.check().unwrap();
        let line = |moves: &[&str]| {
            let moves: Vec<Move> = moves.iter().map(|m| m.parse().unwrap()).collect();
            book.walk(&super::super::probe::encode_line(&moves))
        };
        assert!(line(&["g1f3", "d7d5", "d2d4", "g8f6"]).is_some());
        assert!(line(&["d2d4", "d7d5", "g1f3", "g8f6"]).is_some());
        assert!(line(&["g1f3", "d7d5", "c2c4"]).is_none());
        assert!(line(&["d2d4", "d7d5", "c2c4"]).is_none());
        let e5 = line(&["e2e4", "e7e5", "g1f3"]).unwrap();
        assert!(line(&["e2e4", "e7e5", "g1f3", "b8c6"]).is_none());
        assert_eq!((book.games(e5), book.points(e5)), (2, 3));
        assert_eq!(book.variations(), 3);
        // The same inputs in another order give the same bytes.
        let again = BuildConfig {
            files: vec![b, a],
            threads: 1,
            ..config
        };
        let (second, _) = build(&again, &static_eval, &mut |_, _| {}, &mut |_| {}).unwrap();
        assert_eq!(book.to_bytes(), second.to_bytes());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_input_is_an_error_naming_the_file() {
        let config = BuildConfig {
            files: vec![PathBuf::from("/nonexistent/games.pgn")],
            plies: 12,
            min_games: 1,
            threads: 1,
        };
        let err = build(&config, &static_eval, &mut |_, _| {}, &mut |_| {}).unwrap_err();
        assert!(err.contains("/nonexistent/games.pgn"), "{err}");
    }
}
