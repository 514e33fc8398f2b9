//! The live search of `tropa serve`: one search at a time per page, streamed as Server-Sent
//! Events while it runs.
//!
//! Design note: `GET /api/search?page=ID&fen=…` starts a search on a thread of its own, with an
//! engine of its own (`HASH_MB`, one thread, the built-in net), and its reporter sends each
//! iteration as an `info` event down a channel; the request's thread writes the events to the
//! socket as they come, flushing each, and a comment line every `KEEPALIVE` while the search
//! is quiet. The response is written straight to the connection, each event a chunk of its
//! own (`EventStream`), rather than through `tiny_http`'s chunked encoder, which holds back
//! 8 KiB before it sends anything. A write that fails means the page went away: its search is
//! stopped. A new search for the same page stops the page's old one; `POST /api/stop` stops it
//! too. At most `MAX_SEARCHES` run server-wide; one more waits `SLOT_PATIENCE` for a place
//! and then gets a 503. The stream ends with a `bestmove` event.

use super::api::{board_of, text_field, ApiError};
use super::{respond_error, Slots};
use crate::eval::nnue;
use crate::explain::ending::ending;
use crate::explain::json::{line_json, score_json};
use crate::rules::notation::{move_to_san, move_to_uci};
use crate::rules::{Board, Game, START_FEN};
use crate::search::wdl::{material, MODEL};
use crate::search::{Engine, Limits, Progress, Reporter, Score, SearchControl};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tiny_http::{HTTPVersion, Request};

/// Searches running at once, server-wide.
pub(super) const MAX_SEARCHES: usize = 4;
/// Transposition table of each search, in MB.
const HASH_MB: usize = 64;
/// The most lines a search shows (MultiPV).
const MAX_MULTIPV: usize = 8;
/// The longest fixed search time a request may ask for, in milliseconds (10 minutes).
const MAX_MOVETIME_MS: u64 = 600_000;
/// The deepest fixed depth a request may ask for.
const MAX_DEPTH: i32 = 100;
/// The longest page id.
const MAX_PAGE_ID: usize = 64;
/// How long a new search waits for a place before a 503.
pub(super) const SLOT_PATIENCE: Duration = Duration::from_millis(1500);
/// The longest silence on a stream: a comment line is written then, so that a page that went
/// away is found out within it.
const KEEPALIVE: Duration = Duration::from_secs(1);

/// What stops a page's running work (a search, a study).
pub(super) type Stop = Arc<dyn Fn() + Send + Sync>;

/// A page's running work: its number and what stops it.
struct Running {
    id: u64,
    stop: Stop,
}

/// The pages' running searches and studies, by page id (a study under `study_key`).
pub(super) struct Searches {
    pages: Mutex<HashMap<String, Running>>,
    /// The places of searches (a game's annotation takes one too).
    pub(super) places: Arc<Slots>,
    next_id: AtomicU64,
}

impl Searches {
    /// No search running, `MAX_SEARCHES` places.
    pub(super) fn new() -> Self {
        Searches {
            pages: Mutex::new(HashMap::new()),
            places: Slots::new(MAX_SEARCHES),
            next_id: AtomicU64::new(1),
        }
    }

    fn pages(&self) -> std::sync::MutexGuard<'_, HashMap<String, Running>> {
        // A handler that panicked leaves the map as it was: still usable.
        self.pages.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the work registered under `key`; whether some was running.
    pub(super) fn stop(&self, key: &str) -> bool {
        let stop = self
            .pages()
            .get(key)
            .map(|running| Arc::clone(&running.stop));
        stop.map(|stop| stop()).is_some()
    }

    /// Records the new work under `key` (stopping an old one still there); its number.
    fn register(&self, key: &str, stop: Stop) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let old = self.pages().insert(key.to_string(), Running { id, stop });
        if let Some(old) = old {
            (old.stop)();
        }
        id
    }

    /// Forgets the work `id` under `key`, unless newer work took its place.
    fn unregister(&self, key: &str, id: u64) {
        let mut pages = self.pages();
        if pages.get(key).is_some_and(|running| running.id == id) {
            pages.remove(key);
        }
    }

    /// `POST /api/stop {"page", "what"}`: stops the page's search (`what`: "search"), its
    /// study ("study"), or both (no `what`).
    pub(super) fn stop_request(&self, body: &Value) -> Result<Value, ApiError> {
        let page = text_field(body, "page")?
            .ok_or_else(|| ApiError::bad_request("\"page\" is missing".into()))?;
        let page = page_id(page)?;
        let (search, study) = match text_field(body, "what")? {
            None => (true, true),
            Some("search") => (true, false),
            Some("study") => (false, true),
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "\"what\" must be \"search\" or \"study\", not '{other}'"
                )))
            }
        };
        let stopped_search = search && self.stop(page);
        let stopped_study = study && self.stop(&study_key(page));
        Ok(json!({ "page": page, "stopped": stopped_search || stopped_study }))
    }
}

/// The key a page's study is registered under (a page id has no '/').
pub(super) fn study_key(page: &str) -> String {
    format!("{page}/study")
}

/// A page id: 1 to `MAX_PAGE_ID` letters, digits, `-` or `_`.
pub(super) fn page_id(text: &str) -> Result<&str, ApiError> {
    let fine = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if text.is_empty() || text.len() > MAX_PAGE_ID || !text.chars().all(fine) {
        return Err(ApiError::bad_request(format!(
            "\"page\" must be 1 to {MAX_PAGE_ID} letters, digits, '-' or '_'"
        )));
    }
    Ok(text)
}

/// What a search request asks for.
struct SearchRequest {
    page: String,
    board: Board,
    multipv: usize,
    limits: Limits,
}

/// `%XX` and `+` of a query string decoded.
fn percent_decode(text: &str) -> Result<String, ApiError> {
    let bad = || ApiError::bad_request(format!("bad escape in the query string: '{text}'"));
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).ok_or_else(bad)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return Err(bad());
                }
                let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// The fields of a query string, decoded.
pub(super) fn query_fields(query: &str) -> Result<HashMap<String, String>, ApiError> {
    let mut fields = HashMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        fields.insert(percent_decode(name)?, percent_decode(value)?);
    }
    Ok(fields)
}

/// The page id a query names (`page`, required).
pub(super) fn query_page(fields: &HashMap<String, String>) -> Result<String, ApiError> {
    let page = fields
        .get("page")
        .ok_or_else(|| ApiError::bad_request("\"page\" is missing from the query".into()))?;
    Ok(page_id(page)?.to_string())
}

/// A number of the query within `range`.
pub(super) fn number<T>(
    name: &str,
    text: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, ApiError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match text.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(ApiError::bad_request(format!(
            "\"{name}\" must be a number from {} to {}, not '{text}'",
            range.start(),
            range.end()
        ))),
    }
}

/// The search a query string asks for: `page` (required), `fen` (default: the start
/// position), `multipv`, and `movetime` (ms) or `depth`; with neither, until stopped.
fn parse_query(query: &str) -> Result<SearchRequest, ApiError> {
    let fields = query_fields(query)?;
    let page = query_page(&fields)?;
    let board = board_of(fields.get("fen").map_or(START_FEN, String::as_str))?;
    let multipv = match fields.get("multipv") {
        Some(n) => number("multipv", n, 1..=MAX_MULTIPV)?,
        None => 1,
    };
    let movetime = match fields.get("movetime") {
        Some(ms) => Some(number("movetime", ms, 1..=MAX_MOVETIME_MS)?),
        None => None,
    };
    let depth = match fields.get("depth") {
        Some(d) => Some(number("depth", d, 1..=MAX_DEPTH)?),
        None => None,
    };
    let limits = Limits {
        movetime,
        depth,
        infinite: movetime.is_none() && depth.is_none(),
        ..Default::default()
    };
    Ok(SearchRequest {
        page,
        board,
        multipv,
        limits,
    })
}

/// `GET /api/search`: runs the search and streams it (see the module note).
pub(super) fn stream(request: Request, query: &str, searches: &Searches) {
    let asked = match parse_query(query) {
        Ok(asked) => asked,
        Err(e) => return respond_error(request, &e),
    };
    let game = Game::from_board(asked.board, false);
    if let Some(end) = ending(&game) {
        let e = ApiError::bad_request(format!("nothing to search: {end}"));
        return respond_error(request, &e);
    }
    // The page's old search gives its place back as it stops.
    searches.stop(&asked.page);
    let Some(place) = searches.places.take_within(SLOT_PATIENCE) else {
        let e = ApiError::busy(&format!(
            "{MAX_SEARCHES} searches are running, the most this server runs at once"
        ));
        return respond_error(request, &e);
    };
    let control = Arc::new(SearchControl::new());
    let stop_control = Arc::clone(&control);
    let (limits, multipv) = (asked.limits, asked.multipv);
    let work = move |events: Sender<String>| {
        run_search(&game, &limits, multipv, &control, events);
        drop(place);
    };
    let stop: Stop = Arc::new(move || stop_control.stop());
    stream_work(
        request,
        searches,
        &asked.page,
        stop,
        ": searching\n\n",
        work,
    );
}

/// Runs `work` on a thread of its own as the page's work under `key` (stopping the page's old
/// work there) and streams the events it sends down its channel, each as it comes, with
/// `keepalive` (an event-stream comment) when it is quiet for `KEEPALIVE`. The work ends by
/// dropping its sender; a page that went away is stopped with `stop`.
pub(super) fn stream_work(
    request: Request,
    searches: &Searches,
    key: &str,
    stop: Stop,
    keepalive: &str,
    work: impl FnOnce(Sender<String>) + Send + 'static,
) {
    let id = searches.register(key, Arc::clone(&stop));
    let (sender, events) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("serve-work".into())
        .spawn(move || work(sender));
    if let Err(e) = spawned {
        searches.unregister(key, id);
        let e = ApiError::busy(&format!("cannot start a thread for the work ({e})"));
        return respond_error(request, &e);
    }
    let mut stream = EventStream {
        chunked: *request.http_version() != HTTPVersion(1, 0),
        writer: request.into_writer(),
    };
    let mut open = stream.start();
    while open {
        open = match events.recv_timeout(KEEPALIVE) {
            Ok(event) => stream.send(&event),
            Err(RecvTimeoutError::Timeout) => stream.send(keepalive),
            Err(RecvTimeoutError::Disconnected) => stream.finish(),
        };
        if !open {
            // The page went away (or the stream has ended, and the work with it).
            stop();
        }
    }
    searches.unregister(key, id);
}

/// The response of a search, written straight to the connection (closed after it, as every
/// answer, see `respond`): chunked for HTTP/1.1, so that its end is known; plain for HTTP/1.0,
/// whose connection `tiny_http` closes after the answer.
struct EventStream {
    chunked: bool,
    writer: Box<dyn Write + Send>,
}

impl EventStream {
    /// Writes the head; false when the connection is gone.
    fn start(&mut self) -> bool {
        let framing = match self.chunked {
            true => "Transfer-Encoding: chunked\r\n",
            false => "",
        };
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
             Cache-Control: no-store\r\nConnection: close\r\n{framing}\r\n"
        );
        self.write(head.as_bytes())
    }

    /// Writes and flushes `text` (a chunk of its own when chunked); false when the connection
    /// is gone.
    fn send(&mut self, text: &str) -> bool {
        if self.chunked {
            let chunk = format!("{:x}\r\n{text}\r\n", text.len());
            self.write(chunk.as_bytes())
        } else {
            self.write(text.as_bytes())
        }
    }

    /// Ends the response; always false, as nothing more is sent.
    fn finish(&mut self) -> bool {
        if self.chunked {
            self.write(b"0\r\n\r\n");
        }
        false
    }

    fn write(&mut self, bytes: &[u8]) -> bool {
        self.writer
            .write_all(bytes)
            .and_then(|()| self.writer.flush())
            .is_ok()
    }
}

/// One Server-Sent Event: `event: NAME` and its JSON data.
pub(super) fn event(name: &str, data: &Value) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// Sends each iteration of the search as an `info` event.
struct EventReporter {
    root: Board,
    material: i32,
    events: Sender<String>,
}

impl Reporter for EventReporter {
    fn progress(&mut self, p: &Progress) {
        let (win, draw, loss) = MODEL.permille_of(p.score, self.material);
        let info = json!({
            "depth": p.depth,
            "seldepth": p.seldepth,
            "multipv": p.multipv,
            "score": score_json(p.score),
            "bound": format!("{:?}", p.bound).to_lowercase(),
            "wdl": [win, draw, loss],
            "nodes": p.nodes,
            "nps": p.nodes * 1000 / p.time_ms.max(1),
            "time_ms": p.time_ms,
            "pv": line_json(&self.root, &p.pv),
        });
        // A page gone: the stream's thread stops the search.
        let _ = self.events.send(event("info", &info));
    }
}

/// An engine for one page's work: `HASH_MB`, one thread, the built-in net, no move overhead.
pub(super) fn engine() -> Engine {
    let mut engine = Engine::new(HASH_MB, 1);
    engine.options.move_overhead = 0;
    engine.set_network(Some(nnue::builtin()));
    engine
}

/// Runs one search of the page and sends its events, the `bestmove` last.
fn run_search(
    game: &Game,
    limits: &Limits,
    multipv: usize,
    control: &SearchControl,
    events: Sender<String>,
) {
    let mut engine = engine();
    engine.options.multipv = multipv;
    let root = game.board().clone();
    let mut reporter = EventReporter {
        material: material(&root),
        root,
        events,
    };
    let result = engine.search(game, limits, control, &mut reporter);
    let best = result.best.map(|mv| {
        json!({
            "uci": move_to_uci(game.board(), mv, false),
            "san": move_to_san(game.board(), mv),
        })
    });
    let _ = reporter.events.send(event(
        "bestmove",
        &json!({
            "best": best,
            "score": score_json(Score::from_internal(result.score)),
            "depth": result.depth,
            "nodes": result.nodes,
        }),
    ));
}
