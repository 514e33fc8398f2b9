//! The files of `tropa serve`'s page, embedded in the binary: the page itself (`page/`) and the
//! vendored board library (`vendor/`, lichess's chessground; see its README for version and
//! licence).
//!
//! Design note: a request names an asset, never a path: `find` knows a fixed list of names and
//! answers from memory, so no request can make the server read a file from disk, and neither the
//! build nor a user needs npm.

/// An embedded file: its bytes and its media type.
pub(super) struct Asset {
    /// The file's bytes.
    pub(super) body: &'static [u8],
    /// Its `Content-Type`.
    pub(super) content_type: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";

/// The assets by name, as `/assets/NAME` (and `/` for `index.html`) serves them.
const ASSETS: &[(&str, &str, &str)] = &[
    ("index.html", HTML, include_str!("page/index.html")),
    ("app.js", JS, include_str!("page/app.js")),
    ("sse.js", JS, include_str!("page/sse.js")),
    ("shapes.js", JS, include_str!("page/shapes.js")),
    ("study.js", JS, include_str!("page/study.js")),
    ("review.js", JS, include_str!("page/review.js")),
    ("app.css", CSS, include_str!("page/app.css")),
    (
        "chessground.min.js",
        JS,
        include_str!("vendor/chessground.min.js"),
    ),
    (
        "chessground.base.css",
        CSS,
        include_str!("vendor/chessground.base.css"),
    ),
    (
        "chessground.brown.css",
        CSS,
        include_str!("vendor/chessground.brown.css"),
    ),
    (
        "chessground.cburnett.css",
        CSS,
        include_str!("vendor/chessground.cburnett.css"),
    ),
    ("chessground.LICENSE", TEXT, include_str!("vendor/LICENSE")),
];

/// The embedded file of that name, if there is one.
pub(super) fn find(name: &str) -> Option<Asset> {
    ASSETS
        .iter()
        .find(|(known, _, _)| *known == name)
        .map(|&(_, content_type, text)| Asset {
            body: text.as_bytes(),
            content_type,
        })
}
