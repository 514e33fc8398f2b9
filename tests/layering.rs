//! The engine's modules depend on each other one way only: rules → eval → search → uci/cli, with
//! PIONEER beside the search and the book beside both, and the endgame tables, which know only
//! the rules, below the search and PIONEER. The rules are a crate of their own, so the compiler
//! keeps them apart; inside the engine crate this test does the same for the modules, by
//! reading every `crate::module` path in `src/`. A new arrow that is not in `ALLOWED` — an upward
//! one, or one that closes a circle — fails here with the file that draws it.
//!
//! PIONEER is layered inside as well, one folder a layer (`PIONEER_LAYERS`): a file of
//! `src/pioneer/` may use files of its own layer and of lower ones only, and the files' own
//! graph must have no circle, inside a layer either; both are read from the
//! `crate::pioneer::…` and `super::…` paths of the code before each file's tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module of the engine crate and the modules it may use (`rules`, the rules
/// crate re-exported, is allowed everywhere and not listed).
const ALLOWED: &[(&str, &[&str])] = &[
    ("util", &[]),
    ("bound", &[]),
    ("tablebases", &[]),
    ("eval", &["util"]),
    ("search", &["bound", "eval", "tablebases"]),
    ("pioneer", &["bound", "eval", "tablebases"]),
    ("book", &["eval", "util"]),
    ("leaf_search", &["book", "eval", "pioneer", "search"]),
    ("datagen", &["book", "eval", "search", "tablebases", "util"]),
    ("explain", &["bound", "eval", "pioneer", "search"]),
    (
        "uci",
        &[
            "book",
            "bound",
            "eval",
            "explain",
            "pioneer",
            "search",
            "tablebases",
            "util",
        ],
    ),
    (
        "serve",
        &[
            "book",
            "bound",
            "eval",
            "explain",
            "leaf_search",
            "pioneer",
            "search",
            "tablebases",
            "util",
        ],
    ),
    (
        "cli",
        &[
            "book",
            "bound",
            "datagen",
            "eval",
            "explain",
            "leaf_search",
            "pioneer",
            "search",
            "serve",
            "tablebases",
            "uci",
            "util",
        ],
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`src/search/worker/root.rs` → `search`).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    first.to_string_lossy().trim_end_matches(".rs").to_string()
}

/// The modules a source text names as `crate::module`.
fn used_modules(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        // `tropa_rules::…`-style names and `$crate::` in macros are not this crate's paths.
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let name: String = text[at + "crate::".len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            used.insert(name);
        }
    }
    used
}

/// Every arrow (from module, to module) drawn in `src/`, with a file that draws it.
fn arrows() -> BTreeMap<(String, String), PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut arrows = BTreeMap::new();
    for file in files {
        let from = module_of(&src, &file);
        if from == "lib" || from == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for to in used_modules(&text) {
            if to != from {
                arrows.entry((from.clone(), to)).or_insert(file.clone());
            }
        }
    }
    arrows
}

#[test]
fn modules_depend_one_way_only() {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut wrong = Vec::new();
    for ((from, to), file) in arrows() {
        if to == "rules" {
            continue;
        }
        match allowed.get(from.as_str()) {
            None => wrong.push(format!(
                "{from} is not in ALLOWED (tests/layering.rs): place it in the layers"
            )),
            Some(may) if !may.contains(&to.as_str()) => {
                wrong.push(format!("{from} → {to} ({}) is not allowed", file.display()))
            }
            Some(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_allowed_layers_have_no_circle() {
    // Depth-first search for a back edge over ALLOWED itself, so that the table cannot be edited
    // into a cycle either.
    fn visit<'a>(
        node: &'a str,
        graph: &BTreeMap<&'a str, &'a [&'a str]>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) {
        if done.contains(node) {
            return;
        }
        assert!(!path.contains(&node), "circle: {path:?} → {node}");
        path.push(node);
        for next in graph.get(node).copied().unwrap_or(&[]) {
            visit(next, graph, path, done);
        }
        path.pop();
        done.insert(node);
    }
    let graph: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new(), &mut done);
    }
}

#[test]
fn the_reader_sees_paths_and_ignores_other_crates() {
    let text = "use crate::search::tt;\nlet x = crate::eval::evaluate(b);\nuse other_crate::pioneer;\n$crate::util";
    let used: Vec<String> = used_modules(text).into_iter().collect();
    assert_eq!(used, ["eval", "search"]);
}

// Inside PIONEER (`src/pioneer/`) the files are layered too, one folder a layer, bottom first:
// a file may use the files of its own layer and of the layers below it, and no two files may use
// each other, directly or through others (a circle inside one layer counts too). Only the code
// before a file's `#[cfg(test)]` is read: the tests may use anything.

/// The layers of `src/pioneer/`, bottom first: each folder and its files (`route` is
/// `src/pioneer/board/route.rs`). A new file must be placed here.
const PIONEER_LAYERS: &[(&str, &[&str])] = &[
    (
        "board",
        &[
            "trajectory",
            "control",
            "pins",
            "route",
            "pieces",
            "arrival",
        ],
    ),
    ("rejection", &["safety", "reject", "duty", "escape"]),
    ("attacks", &["attack", "mate", "hunt"]),
    (
        "counters",
        &["tempo", "counter", "immobility", "defence", "support"],
    ),
    (
        "zones",
        &[
            "zone",
            "hindrance",
            "critical",
            "analysis",
            "goal_change",
            "fork",
            "combination",
            "combination_text",
        ],
    ),
    ("play", &["moves", "admission", "model_value"]),
    ("uses", &["study", "proof", "plan", "svg", "guide"]),
];

/// Files of `src/pioneer/` that hold tests only (the examples, a file's test module kept apart).
const PIONEER_TEST_FILES: &[&str] = &["examples", "proof_tests", "study_tests"];

/// A file of PIONEER: its folder (its layer) and its name.
type PioneerFile = (String, String);

/// The layer of a folder (0 at the bottom), or `None` when it is not in `PIONEER_LAYERS`.
fn pioneer_layer(folder: &str) -> Option<usize> {
    PIONEER_LAYERS.iter().position(|(f, _)| *f == folder)
}

/// The code of a source text outside its tests and comments: cut at the first `#[cfg(test)]`,
/// each line cut at `//`.
fn code_outside_tests(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    code.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads a path or a use tree at `at` in `chars`, below `prefix`, and records the first `need`
/// segments of every path that has them (`a::{b::C, d::{E, F}}` gives `a::b` and `a::d`).
fn use_tree(
    chars: &[char],
    at: &mut usize,
    prefix: &mut Vec<String>,
    need: usize,
    out: &mut BTreeSet<Vec<String>>,
) {
    let skip_space = |at: &mut usize| {
        while *at < chars.len() && chars[*at].is_whitespace() {
            *at += 1;
        }
    };
    skip_space(at);
    if *at >= chars.len() {
        return;
    }
    match chars[*at] {
        '{' => {
            *at += 1;
            loop {
                let depth = prefix.len();
                use_tree(chars, at, prefix, need, out);
                prefix.truncate(depth);
                skip_space(at);
                match chars.get(*at) {
                    Some(',') => *at += 1,
                    Some('}') => {
                        *at += 1;
                        return;
                    }
                    _ => return,
                }
                skip_space(at);
                if chars.get(*at) == Some(&'}') {
                    *at += 1;
                    return;
                }
            }
        }
        '*' => {
            *at += 1;
            prefix.push("*".to_string());
            if prefix.len() <= need {
                out.insert(prefix.clone());
            }
        }
        c if c.is_alphanumeric() || c == '_' => {
            let start = *at;
            while *at < chars.len() && (chars[*at].is_alphanumeric() || chars[*at] == '_') {
                *at += 1;
            }
            prefix.push(chars[start..*at].iter().collect());
            if prefix.len() == need {
                out.insert(prefix.clone());
            }
            if chars.get(*at) == Some(&':') && chars.get(*at + 1) == Some(&':') {
                *at += 2;
                use_tree(chars, at, prefix, need, out);
            } else if prefix.len() < need {
                // A path that ends above a file (`crate::pioneer::zones;`): recorded as it is,
                // so that it is reported.
                out.insert(prefix.clone());
            }
        }
        _ => {}
    }
}

/// The PIONEER files a source text of `folder` names outside its tests: by
/// `crate::pioneer::folder::file…` and by `super::file…` (`super::super::folder::file…`), each
/// as (folder, file). A path that names no file (a glob, a folder alone, a re-export) comes out
/// with what it names, for the test to report.
fn pioneer_uses(text: &str, folder: &str) -> BTreeSet<Vec<String>> {
    let code = code_outside_tests(text);
    let chars: Vec<char> = code.chars().collect();
    let mut out = BTreeSet::new();
    let mut found = |base: Vec<String>, need: usize, at: usize| {
        let mut paths = BTreeSet::new();
        let mut at = at;
        use_tree(&chars, &mut at, &mut Vec::new(), need, &mut paths);
        for path in paths {
            out.insert(base.iter().cloned().chain(path).collect::<Vec<_>>());
        }
    };
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == ':';
    for (at, _) in code.match_indices("crate::pioneer::") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let start = code[..at + "crate::pioneer::".len()].chars().count();
        found(Vec::new(), 2, start);
    }
    for (at, _) in code.match_indices("super::") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let mut rest = &code[at..];
        let mut depth = 0;
        while let Some(after) = rest.strip_prefix("super::") {
            depth += 1;
            rest = after;
        }
        let start = code.len() - rest.len();
        let start = code[..start].chars().count();
        match depth {
            1 => found(vec![folder.to_string()], 1, start),
            2 => found(Vec::new(), 2, start),
            _ => {}
        }
    }
    out
}

/// Every file of `src/pioneer/` outside the tests, with the files it uses: (the file, its path,
/// the paths it names). Files that are in no folder of the table come out too, for the test to
/// report.
fn pioneer_files() -> Vec<(PioneerFile, PathBuf, BTreeSet<Vec<String>>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/pioneer");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let relative = path.strip_prefix(&root).unwrap();
        let parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        let name = parts.last().unwrap().clone();
        if name == "mod" && parts.len() <= 2 || PIONEER_TEST_FILES.contains(&name.as_str()) {
            continue;
        }
        let folder = if parts.len() == 2 {
            parts[0].clone()
        } else {
            // Straight in `src/pioneer/` or deeper than one folder: reported as unplaced.
            parts[..parts.len() - 1].join("/")
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let uses = pioneer_uses(&text, &folder);
        let shown = Path::new("src/pioneer").join(relative);
        out.push(((folder, name), shown, uses));
    }
    out
}

/// Is (folder, file) a file of the table?
fn in_pioneer_table(folder: &str, name: &str) -> bool {
    PIONEER_LAYERS
        .iter()
        .any(|(f, files)| *f == folder && files.contains(&name))
}

#[test]
fn pioneer_files_use_only_their_layer_and_below() {
    let mut wrong = Vec::new();
    for ((folder, name), path, uses) in pioneer_files() {
        if !in_pioneer_table(&folder, &name) {
            wrong.push(format!(
                "{} is not in PIONEER_LAYERS (tests/layering.rs): place it in a layer's folder",
                path.display()
            ));
            continue;
        }
        let from = pioneer_layer(&folder).unwrap();
        for used in uses {
            let [to_folder, to_name] = used.as_slice() else {
                wrong.push(format!(
                    "{} names pioneer::{}, no file",
                    path.display(),
                    used.join("::")
                ));
                continue;
            };
            if !in_pioneer_table(to_folder, to_name) {
                wrong.push(format!(
                    "{} names pioneer::{to_folder}::{to_name}, which is no file of PIONEER_LAYERS \
                     (name the file that holds the item, not a re-export)",
                    path.display()
                ));
                continue;
            }
            let to = pioneer_layer(to_folder).unwrap();
            if to > from {
                wrong.push(format!(
                    "{folder}::{name} → {to_folder}::{to_name} ({}) points up, from layer {} to \
                     layer {}",
                    path.display(),
                    from + 1,
                    to + 1
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn pioneer_files_draw_no_circle() {
    // The graph of the files' real arrows; a depth-first search reports the first circle it
    // closes, with the file that draws each arrow of it.
    let mut graph: BTreeMap<PioneerFile, BTreeSet<PioneerFile>> = BTreeMap::new();
    let mut paths: BTreeMap<PioneerFile, PathBuf> = BTreeMap::new();
    for (file, path, uses) in pioneer_files() {
        let targets = uses
            .into_iter()
            .filter_map(|u| match u.as_slice() {
                [f, n] => Some((f.clone(), n.clone())),
                _ => None,
            })
            .filter(|target| *target != file)
            .collect();
        graph.insert(file.clone(), targets);
        paths.insert(file, path);
    }
    fn visit(
        node: &PioneerFile,
        graph: &BTreeMap<PioneerFile, BTreeSet<PioneerFile>>,
        path: &mut Vec<PioneerFile>,
        done: &mut BTreeSet<PioneerFile>,
    ) -> Option<Vec<PioneerFile>> {
        if done.contains(node) {
            return None;
        }
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut circle = path[start..].to_vec();
            circle.push(node.clone());
            return Some(circle);
        }
        path.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.clone());
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(circle) = visit(node, &graph, &mut Vec::new(), &mut done) {
            let arrows: Vec<String> = circle
                .windows(2)
                .map(|pair| {
                    format!(
                        "{}::{} → {}::{} (drawn by {})",
                        pair[0].0,
                        pair[0].1,
                        pair[1].0,
                        pair[1].1,
                        paths[&pair[0]].display()
                    )
                })
                .collect();
            panic!(
                "PIONEER's files use each other in a circle:\n{}",
                arrows.join("\n")
            );
        }
    }
}

#[test]
fn the_pioneer_table_names_each_file_once_and_every_file_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/pioneer");
    let mut seen = BTreeSet::new();
    for (folder, files) in PIONEER_LAYERS {
        for name in *files {
            assert!(
                seen.insert(*name),
                "{name} is listed twice in PIONEER_LAYERS"
            );
            let path = root.join(folder).join(format!("{name}.rs"));
            assert!(
                path.is_file(),
                "{} is listed but does not exist",
                path.display()
            );
        }
    }
}

#[test]
fn the_pioneer_reader_sees_groups_super_and_paths_in_code() {
    let text = "use super::counter::{budget, Counter};\n\
                use super::super::board::{pieces::piece_letter, route::{Route, best_route}};\n\
                use crate::pioneer::attacks::attack::Goal; // crate::pioneer::uses::plan\n\
                let x = crate::pioneer::zones::analysis::Analysis::new(b);\n\
                use crate::pioneer::{play::moves::zone_moves, zones::zone::Zone};\n\
                use crate::pioneer::zones::*;\n\
                #[cfg(test)]\nuse crate::pioneer::uses::study;";
    let names: Vec<String> = pioneer_uses(text, "counters")
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        names,
        [
            "attacks::attack",
            "board::pieces",
            "board::route",
            "counters::counter",
            "play::moves",
            "zones::*",
            "zones::analysis",
            "zones::zone",
        ]
    );
}
