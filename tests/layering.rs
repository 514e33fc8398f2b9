//! The engine's modules depend on each other one way only: rules → eval → search → uci/cli, with
//! PIONEER beside the search and the book beside both, and the endgame tables, which know only
//! the rules, below the search and PIONEER. The rules are a crate of their own, so the compiler
//! keeps them apart; inside the engine crate this test does the same for the modules, by
//! reading every `crate::module` path in `src/`. A new arrow that is not in `ALLOWED` — an upward
//! one, or one that closes a circle — fails here with the file that draws it.

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
        "cli",
        &[
            "book",
            "bound",
            "datagen",
            "eval",
            "explain",
            "pioneer",
            "search",
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
