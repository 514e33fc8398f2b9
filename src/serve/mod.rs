//! `tropa serve`: a local web page to analyse a position — the board, the live search and
//! PIONEER's plans drawn on it — and the JSON API the page itself uses.
//!
//! Design note: the server is a layer on top of what the command line and `explain` already
//! expose; the engine's core knows nothing of HTTP. It is `tiny_http` (synchronous, no async
//! runtime, a few small dependencies, so the release build stays fast), with a thread per
//! request, at most `MAX_HANDLERS` at once (more get a 503 at once, so many pages cannot exhaust
//! the machine). This file starts the server and routes; `api` answers the JSON requests,
//! `annotate` reviews a game's moves, `study` runs PIONEER's study mode, `live` runs the
//! searches and streams them as Server-Sent Events, `assets` holds the page and the vendored
//! board library, embedded in the binary.
//!
//! Security: the server binds to 127.0.0.1 unless told otherwise and says so at start; it
//! reads and writes no file on a request's say-so (the assets are in memory); request bodies
//! are limited to `MAX_BODY` bytes; every bad input gets a 4xx and `{"error": "…"}`, and the
//! server keeps serving.

mod annotate;
mod api;
mod assets;
mod live;
mod study;

use api::ApiError;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Request, Response, Server, StatusCode};

/// The largest request body the server reads (1 MiB).
pub const MAX_BODY: usize = 1 << 20;
/// The largest declared body a refused request may leave unread (see `refuse_oversized`).
const LARGEST_DRAINED_BODY: usize = 64 << 20;
/// Requests handled at once; one more is answered 503 without a thread of its own.
const MAX_HANDLERS: usize = 64;

/// What `tropa serve` was asked for.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on (127.0.0.1 by default: this machine only).
    pub host: String,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Start a browser on the page.
    pub open: bool,
}

/// Places held in a bounded pool of work (searches, plan analyses); a place is given back
/// when its `Slot` is dropped.
struct Slots {
    taken: AtomicUsize,
    most: usize,
}

/// One place of a `Slots` pool, given back on drop.
struct Slot {
    slots: Arc<Slots>,
}

impl Slots {
    /// A pool of `most` places.
    fn new(most: usize) -> Arc<Self> {
        Arc::new(Slots {
            taken: AtomicUsize::new(0),
            most,
        })
    }

    /// A place, if one is free now.
    fn try_take(self: &Arc<Self>) -> Option<Slot> {
        let taken = self.taken.fetch_add(1, Ordering::AcqRel);
        if taken >= self.most {
            self.taken.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Slot {
            slots: Arc::clone(self),
        })
    }

    /// A place, waiting up to `patience` for one to be given back.
    fn take_within(self: &Arc<Self>, patience: Duration) -> Option<Slot> {
        let start = Instant::now();
        loop {
            if let Some(slot) = self.try_take() {
                return Some(slot);
            }
            if start.elapsed() >= patience {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.taken.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What every request handler shares.
struct State {
    handlers: Arc<Slots>,
    plans: Arc<Slots>,
    searches: live::Searches,
}

/// Runs the server until the process is ended (Ctrl-C): prints the address on one line, opens
/// a browser if asked, and answers every request on a thread of its own.
pub fn serve(options: &ServeOptions) -> Result<(), String> {
    let host: IpAddr = options
        .host
        .parse()
        .map_err(|_| format!("--host must be an IP address, not '{}'", options.host))?;
    let server = Server::http((host, options.port))
        .map_err(|e| format!("cannot listen on {host} port {}: {e}", options.port))?;
    let address = server
        .server_addr()
        .to_ip()
        .ok_or("the server is not listening on an IP address")?;
    let url = format!("http://{address}/");
    let scope = if host.is_loopback() {
        "local only; --host to change"
    } else {
        "reachable from other machines"
    };
    announce(&format!("Tropa serving on {url} ({scope})"));
    if !host.is_loopback() {
        eprintln!(
            "warning: listening on {host}: anyone who can reach this machine can use the page \
             and run searches on it; use --host 127.0.0.1 to keep it local"
        );
    }
    if options.open {
        open_browser(&url);
    }
    let state = Arc::new(State {
        handlers: Slots::new(MAX_HANDLERS),
        plans: Slots::new(api::MAX_PLAN_ANALYSES),
        searches: live::Searches::new(),
    });
    for request in server.incoming_requests() {
        if request.body_length().is_some_and(|n| n > MAX_BODY) {
            refuse_oversized(request);
            continue;
        }
        let Some(slot) = state.handlers.try_take() else {
            respond_error(
                request,
                &ApiError::busy("the server is answering too many requests"),
            );
            continue;
        };
        let state = Arc::clone(&state);
        let spawned = std::thread::Builder::new()
            .name("serve".into())
            .spawn(move || {
                handle(request, &state);
                drop(slot);
            });
        if let Err(e) = spawned {
            eprintln!("serve: cannot start a thread for a request: {e}");
        }
    }
    Ok(())
}

/// Answers 413 to a request whose declared body is over `MAX_BODY`, without reading it.
///
/// `tiny_http` 0.12 drains a body left unread when its request is dropped, into one buffer of
/// the declared size (tiny-http/tiny-http#290, not released): a declared length beyond the
/// memory at hand aborts the process. Such a request is answered through `upgrade`, which
/// hands over its connection, and the connection is then left open and never dropped; a
/// smaller one is dropped as usual, which costs a buffer of at most `LARGEST_DRAINED_BODY`.
fn refuse_oversized(request: Request) {
    let error = ApiError::too_large(MAX_BODY);
    if request
        .body_length()
        .is_some_and(|n| n > LARGEST_DRAINED_BODY)
    {
        let answer = Response::from_data(error.body().to_string())
            .with_status_code(error.status)
            .with_header(
                Header::from_bytes("Content-Type", "application/json").expect("a valid header"),
            );
        let connection = request.upgrade("close", answer);
        std::mem::forget(connection);
    } else {
        respond_error(request, &error);
    }
}

/// Prints the line a user (or a test) reads the address from, at once.
fn announce(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed standard output does not stop the server.
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// Starts `$BROWSER`, or `xdg-open`, on `url`; says so when it cannot and keeps serving.
fn open_browser(url: &str) {
    let browser = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty())
        .unwrap_or_else(|| "xdg-open".into());
    let started = std::process::Command::new(&browser)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let url = url.to_string();
    match started {
        Ok(mut child) => {
            // Waited for on a thread of its own, so that a failure is told and no zombie stays.
            std::thread::spawn(move || match child.wait() {
                Ok(status) if status.success() => {}
                Ok(status) => eprintln!("{browser} ended with {status}; open {url} yourself"),
                Err(e) => eprintln!("cannot wait for {browser}: {e}; open {url} yourself"),
            });
        }
        Err(e) => eprintln!("cannot start a browser ({browser}: {e}); open {url} yourself"),
    }
}

/// Routes one request.
fn handle(mut request: Request, state: &State) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().clone();
    if path == "/api/search" {
        if method != Method::Get {
            return respond_error(request, &ApiError::method(&method, "GET"));
        }
        return live::stream(request, query, &state.searches);
    }
    if path == "/api/study" && method == Method::Get {
        return study::stream(request, query, &state.searches, &state.plans);
    }
    if path == "/" || path.starts_with("/assets/") {
        if method != Method::Get && method != Method::Head {
            return respond_error(request, &ApiError::method(&method, "GET"));
        }
        let name = path.strip_prefix("/assets/").unwrap_or("index.html");
        return match assets::find(name) {
            Some(asset) => respond(
                request,
                &Reply {
                    status: 200,
                    content_type: asset.content_type,
                    cache: "no-cache",
                    body: asset.body.into(),
                    allow: None,
                },
            ),
            None => respond_error(request, &ApiError::not_found(path)),
        };
    }
    let Some(endpoint) = api::Endpoint::of_path(path) else {
        return respond_error(request, &ApiError::not_found(path));
    };
    if method != Method::Post {
        return respond_error(request, &ApiError::method(&method, "POST"));
    }
    let answer = read_json(&mut request).and_then(|body| endpoint.answer(&body, state));
    match answer {
        Ok(value) => respond(request, &Reply::json(200, &value)),
        Err(e) => respond_error(request, &e),
    }
}

/// The body of a request as JSON, within `MAX_BODY` bytes.
fn read_json(request: &mut Request) -> Result<Value, ApiError> {
    let too_large = || ApiError::too_large(MAX_BODY);
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| ApiError::bad_request(format!("cannot read the request body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(too_large());
    }
    serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("malformed JSON in the request body: {e}")))
}

/// An answer: its status, media type, caching, body and, for a 405, the method allowed.
struct Reply<'a> {
    status: u16,
    content_type: &'static str,
    cache: &'static str,
    body: std::borrow::Cow<'a, [u8]>,
    allow: Option<&'static str>,
}

impl Reply<'_> {
    /// A JSON answer with `status`.
    fn json(status: u16, value: &Value) -> Reply<'static> {
        Reply {
            status,
            content_type: "application/json",
            cache: "no-store",
            body: value.to_string().into_bytes().into(),
            allow: None,
        }
    }

    /// `error` as its status and `{"error": "…"}`.
    fn error(error: &ApiError) -> Reply<'static> {
        Reply {
            allow: error.allow,
            ..Reply::json(error.status, &error.body())
        }
    }
}

/// Sends a reply, written straight to the connection with `Connection: close` (a page that
/// went away meanwhile is not the server's trouble).
///
/// `tiny_http` would keep the connection open for the next request, and its pool of connection
/// threads can queue a new connection behind one that stays open (two connections accepted at
/// once see one idle thread): a browser's parallel requests then hang until a connection
/// closes. Closing each connection after its answer keeps every connection's turn short.
fn respond(request: Request, reply: &Reply) {
    let head_only = request.method() == &Method::Head;
    let reason = StatusCode(reply.status).default_reason_phrase();
    let mut head = format!(
        "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: {}\r\nConnection: close\r\n",
        reply.status,
        reply.content_type,
        reply.body.len(),
        reply.cache
    );
    if let Some(allow) = reply.allow {
        head.push_str(&format!("Allow: {allow}\r\n"));
    }
    head.push_str("\r\n");
    let mut writer = request.into_writer();
    let _ = writer
        .write_all(head.as_bytes())
        .and_then(|()| match head_only {
            true => Ok(()),
            false => writer.write_all(&reply.body),
        })
        .and_then(|()| writer.flush());
}

/// Sends `error` as its status and `{"error": "…"}`.
fn respond_error(request: Request, error: &ApiError) {
    respond(request, &Reply::error(error));
}
