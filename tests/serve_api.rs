//! `tropa serve`'s HTTP API, as a script sees it: the built binary is started on a free port of
//! 127.0.0.1 and spoken to over plain HTTP/1.1 on `TcpStream` (no client library). Every
//! endpoint answers; every bad input of the list gets its 4xx with `{"error": "…"}` and the
//! server answers the next request; the search streams as Server-Sent Events and stops when
//! asked or when its page goes away; and a bounded load test (`LOAD_CLIENTS` threads ×
//! `LOAD_REQUESTS` requests, each with a timeout) ends with no error. docs/serve.md quotes the
//! load test's figures, which `load_test` prints.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A read or write that takes longer than this fails the test.
const TIMEOUT: Duration = Duration::from_secs(20);
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Réti's study: White to move draws.
const RETI: &str = "7K/8/k1P5/7p/8/8/8/8 w - - 0 1";

/// The server, killed when the test ends, also by a panic.
struct Server {
    child: Child,
    address: SocketAddr,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tropa"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tropa serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("the address line");
        assert!(line.contains("(local only; --host to change)"), "{line}");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in '{line}'"));
        Server { child, address }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect_timeout(&self.address, TIMEOUT).expect("connect");
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        stream.set_write_timeout(Some(TIMEOUT)).unwrap();
        stream
    }

    /// Sends one request (`Connection: close`) and reads the whole answer.
    fn request(&self, method: &str, path: &str, body: &[u8]) -> Answer {
        let mut stream = self.connect();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("write the head");
        stream.write_all(body).expect("write the body");
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).expect("read the answer");
        Answer::parse(&bytes)
    }

    fn post(&self, path: &str, body: &Value) -> Answer {
        self.request("POST", path, body.to_string().as_bytes())
    }

    fn get(&self, path: &str) -> Answer {
        self.request("GET", path, b"")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer: status, head and body (chunked bodies decoded).
struct Answer {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Answer {
    fn parse(bytes: &[u8]) -> Answer {
        let split = bytes
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no end of head in {:?}", String::from_utf8_lossy(bytes)));
        let head = String::from_utf8_lossy(&bytes[..split]).to_string();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        let mut body = bytes[split + 4..].to_vec();
        if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            body = dechunk(&body);
        }
        Answer { status, head, body }
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!("{e}: {}", String::from_utf8_lossy(&self.body));
        })
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = body.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(std::str::from_utf8(&body[..line_end]).unwrap(), 16);
        let size = size.unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&body[line_end + 2..line_end + 2 + size]);
        body = &body[line_end + 2 + size + 2..];
    }
}

/// A query-string value: spaces and slashes escaped.
fn escaped(text: &str) -> String {
    text.replace('%', "%25")
        .replace(' ', "%20")
        .replace('/', "%2F")
}

/// The events of a finished stream: (name, data).
fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_string(), serde_json::from_str(data).unwrap()))
        })
        .collect()
}

#[test]
fn page_and_assets_are_served_from_memory() {
    let server = Server::start();
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.head.contains("text/html"), "{}", page.head);
    assert!(page.text().contains("/assets/app.js"));
    let board = server.get("/assets/chessground.min.js");
    assert_eq!(board.status, 200);
    assert!(board.text().contains("Chessground"));
    for name in [
        "app.js",
        "sse.js",
        "shapes.js",
        "study.js",
        "review.js",
        "app.css",
        "chessground.cburnett.css",
    ] {
        assert_eq!(server.get(&format!("/assets/{name}")).status, 200, "{name}");
    }
    // Names, never paths: nothing of the disk is reachable.
    for path in [
        "/assets/../Cargo.toml",
        "/assets/%2e%2e/Cargo.toml",
        "/assets/page/index.html",
        "/Cargo.toml",
    ] {
        let answer = server.get(path);
        assert_eq!(answer.status, 404, "{path}");
        assert!(answer.json()["error"].is_string());
    }
}

#[test]
fn positions_moves_and_games() {
    let server = Server::start();
    let start = server.post("/api/position", &json!({})).json();
    assert_eq!(start["fen"], START_FEN);
    assert_eq!(start["side_to_move"], "white");
    assert_eq!(start["dests"]["e2"], json!(["e3", "e4"]));
    assert_eq!(start["moves"].as_array().unwrap().len(), 20);
    assert_eq!(start["check"], false);
    assert_eq!(start["game_over"], Value::Null);

    let after = server
        .post(
            "/api/position",
            &json!({ "moves": ["f2f3", "e7e5", "g2g4"] }),
        )
        .json();
    assert_eq!(after["side_to_move"], "black");
    let mate = server
        .post("/api/move", &json!({ "fen": after["fen"], "move": "Qh4" }))
        .json();
    assert_eq!(mate["san"], "Qh4#");
    assert_eq!(mate["uci"], "d8h4");
    assert_eq!(mate["check"], true);
    assert_eq!(mate["game_over"], "checkmate: Black wins");
    assert_eq!(mate["result"], "0-1");

    // Castling is the king's move to its square, as the board drags it.
    let castle = server
        .post(
            "/api/position",
            &json!({ "fen": "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" }),
        )
        .json();
    let king = castle["dests"]["e1"].as_array().unwrap();
    assert!(king.contains(&json!("g1")) && king.contains(&json!("c1")));

    let pgn = "[Event \"t\"]\n[FEN \"7k/8/6K1/8/8/8/8/R7 w - - 0 40\"]\n\n40. Ra8# 1-0\n";
    let game = server.post("/api/pgn", &json!({ "pgn": pgn })).json();
    assert_eq!(game["start_fen"], "7k/8/6K1/8/8/8/8/R7 w - - 0 40");
    assert_eq!(game["result"], "1-0");
    assert_eq!(game["tags"]["Event"], "t");
    assert_eq!(
        game["moves"],
        json!([{ "uci": "a1a8", "san": "Ra8#", "fen": "R6k/8/6K1/8/8/8/8/8 b - - 1 40" }])
    );
}

#[test]
fn plans_carry_what_the_drawing_needs() {
    let server = Server::start();
    let answer = server.post("/api/plans", &json!({ "fen": RETI }));
    assert_eq!(answer.status, 200);
    let plans = answer.json();
    assert_eq!(plans["fen"], RETI);
    let list = plans["plans"].as_array().unwrap();
    assert!(!list.is_empty());
    for plan in list {
        assert!(plan["trajectory"].as_array().unwrap().len() >= 2, "{plan}");
        for counter in plan["counters"].as_array().unwrap() {
            assert!(counter["in_time"].is_boolean(), "{counter}");
            assert!(counter["trajectory"].as_array().unwrap().len() >= 2);
        }
    }
    // Black's king takes c6 unless White's king comes in time: K h8–g7–f6–e5–d5.
    let capture = list
        .iter()
        .find(|p| p["goal"]["kind"] == "capture" && p["goal"]["square"] == "c6")
        .expect("the attack on c6");
    assert_eq!(capture["trajectory"], json!(["a6", "b6", "c6"]));
    assert!(!capture["counters"].as_array().unwrap().is_empty());
}

#[test]
fn a_game_is_annotated_as_tropa_annotate_does() {
    let server = Server::start();
    let pgn = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0";
    let answer = server.post("/api/annotate", &json!({ "pgn": pgn, "movetime": 30 }));
    assert_eq!(answer.status, 200, "{}", answer.text());
    let game = answer.json();
    assert_eq!(game["result"], "1-0");
    assert!(game["start_eval"]["cp"].is_i64());
    let moves = game["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    let blunder = &moves[5];
    assert_eq!(blunder["san"], "Nf6");
    assert_eq!(blunder["mark"], "??", "{blunder}");
    assert_eq!(blunder["judgement"], "blunder");
    let better = blunder["better"]["san"].as_str().unwrap();
    assert!(["g6", "Qe7", "Qf6"].contains(&better), "{better}");
    assert!(blunder["idea"].as_str().unwrap().starts_with("PIONEER: "));
    // White mates: the evaluation after the blunder is a mate for White, and after the mate
    // there is none (the mated side has no evaluation).
    assert!(blunder["eval"]["mate"].as_i64().unwrap() > 0, "{blunder}");
    assert_eq!(moves[6]["eval"], Value::Null);
    assert_eq!(moves[6]["mark"], Value::Null);
}

#[test]
fn study_mode_proves_the_reti_draw() {
    let server = Server::start();
    // The zone model alone (leaf depth 0): a second or so.
    let answer = server.post("/api/study", &json!({ "fen": RETI, "leaf_depth": 0 }));
    assert_eq!(answer.status, 200, "{}", answer.text());
    let study = answer.json();
    assert_eq!(study["fen"], RETI);
    assert_eq!(study["leaf_depth"], 0);
    assert_eq!(study["stopped"], false);
    assert!(study["proof"]["summary"].is_string());
    assert!(!study["rounds"].as_array().unwrap().is_empty());
    // Kg7 draws, and its line plays on the board: UCI and SAN side by side.
    let kg7 = study["first_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["san"] == "Kg7")
        .expect("the king's first move");
    assert_eq!(kg7["zone_search"]["verdict"], "draw", "{kg7}");
    let line = &kg7["zone_search"]["line"];
    assert_eq!(line["uci"][0], "h8g7");
    assert_eq!(line["san"][0], "Kg7");
    let proof = kg7["proof"]["summary"].as_str().unwrap();
    assert!(proof.contains("White at least draws"), "{proof}");
    let bad = server.post("/api/study", &json!({ "fen": "8/8/8/8 w - - 0 1" }));
    assert_eq!(bad.status, 400);
    for depth in [json!(21), json!(-1), json!("six")] {
        let bad = server.post("/api/study", &json!({ "fen": RETI, "leaf_depth": depth }));
        assert_eq!(bad.status, 400, "{depth}");
        assert!(bad.json()["error"].as_str().unwrap().contains("leaf_depth"));
    }
}

/// Streams a study of `fen` for `page` at `leaf_depth` to its end: its events.
fn study_events(server: &Server, page: &str, fen: &str, leaf_depth: u32) -> Vec<(String, Value)> {
    let path = format!(
        "/api/study?page={page}&fen={}&leaf_depth={leaf_depth}",
        escaped(fen)
    );
    let answer = server.get(&path);
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert!(answer.head.contains("text/event-stream"), "{}", answer.head);
    events(&answer.text())
}

#[test]
fn a_study_streams_its_rounds_then_the_whole_study() {
    let server = Server::start();
    let events = study_events(&server, "s1", RETI, 0);
    let (last, study) = events.last().unwrap();
    assert_eq!(last, "study");
    // Every legal first move's zone search came before the proofs' rounds, in the order the
    // study lists them, and every round is in the study too.
    let zones: Vec<&Value> = events
        .iter()
        .filter(|(name, _)| name == "zone")
        .map(|(_, data)| data)
        .collect();
    let first_moves = study["first_moves"].as_array().unwrap();
    assert_eq!(zones.len(), first_moves.len());
    for (zone, first) in zones.iter().zip(first_moves) {
        assert_eq!(zone["san"], first["san"]);
    }
    let rounds: Vec<&Value> = events
        .iter()
        .filter(|(name, _)| name == "round")
        .map(|(_, data)| data)
        .collect();
    assert_eq!(rounds.len(), study["rounds"].as_array().unwrap().len());
    assert!(rounds.iter().all(|r| {
        let share = r["progress"].as_f64().unwrap();
        (0.0..=1.0).contains(&share) && r["max_positions"].as_u64().unwrap() > 0
    }));
    // The start position's proof fills its bar as it goes.
    let start: Vec<f64> = rounds
        .iter()
        .filter(|r| r["move"].is_null())
        .map(|r| r["progress"].as_f64().unwrap())
        .collect();
    assert!(start.windows(2).all(|w| w[0] <= w[1]), "{start:?}");
    assert!(study["proof"]["summary"]
        .as_str()
        .unwrap()
        .contains("White at least draws"));
    // A bad query is a 400, not a stream.
    for query in [
        "page=s2",
        "fen=8/8/8/8/8/8/8/8%20w%20-%20-",
        "page=s2&fen=x",
        "page=s2&fen=8/8/8/8/8/8/8/8%20w%20-%20-&leaf_depth=99",
    ] {
        let answer = server.get(&format!("/api/study?{query}"));
        assert_eq!(answer.status, 400, "{query}: {}", answer.text());
    }
}

#[test]
fn a_study_stops_when_asked() {
    let server = Server::start();
    // Réti's study with the default leaf search takes tens of seconds; stopped, its stream ends
    // at once with what it had, not proven.
    let mut stream = open_study(&server, "s3");
    // The search of the page is another matter: stopping it leaves the study running.
    let search = server.post("/api/stop", &json!({ "page": "s3", "what": "search" }));
    assert_eq!(search.json()["stopped"], false);
    let asked = Instant::now();
    let study = server.post("/api/stop", &json!({ "page": "s3", "what": "study" }));
    assert_eq!(study.json()["stopped"], true);
    let mut rest = Vec::new();
    stream.read_to_end(&mut rest).unwrap();
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "{:?}",
        asked.elapsed()
    );
    let text = String::from_utf8_lossy(&rest);
    let study = text
        .split("event: study\ndata: ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap_or_else(|| panic!("no study event in {text}"));
    let study: Value = serde_json::from_str(study).unwrap();
    assert_eq!(study["stopped"], true);
    assert_eq!(study["proof"]["proven"], false);
    let bad = server.post("/api/stop", &json!({ "page": "s3", "what": "everything" }));
    assert_eq!(bad.status, 400);

    // A page that goes away stops its study: the server finds out at its next write.
    let stream = open_study(&server, "s4");
    drop(stream);
    std::thread::sleep(Duration::from_millis(3500));
    let gone = server.post("/api/stop", &json!({ "page": "s4", "what": "study" }));
    assert_eq!(
        gone.json()["stopped"],
        false,
        "still studying for a page gone"
    );
}

/// Opens a stream of Réti's study (default leaf depth: tens of seconds) for `page` and reads its
/// head; the stream stays open.
fn open_study(server: &Server, page: &str) -> TcpStream {
    let mut stream = server.connect();
    let head = format!(
        "GET /api/study?page={page}&fen={} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n",
        escaped(RETI)
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut first = [0u8; 12];
    stream.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    stream
}

#[test]
fn a_search_streams_its_lines_and_its_best_move() {
    let server = Server::start();
    let path = format!(
        "/api/search?page=t1&fen={}&depth=8&multipv=2",
        escaped(RETI)
    );
    let answer = server.get(&path);
    assert_eq!(answer.status, 200);
    assert!(answer.head.contains("text/event-stream"), "{}", answer.head);
    let events = events(&answer.text());
    let infos: Vec<&Value> = events
        .iter()
        .filter(|(name, _)| name == "info")
        .map(|(_, data)| data)
        .collect();
    assert!(infos.iter().any(|i| i["multipv"] == 2));
    let last = infos.last().unwrap();
    assert_eq!(last["depth"], 8);
    for field in ["seldepth", "nodes", "nps", "time_ms"] {
        assert!(last[field].is_u64(), "{field}: {last}");
    }
    assert!(last["score"]["cp"].is_i64() || last["score"]["mate"].is_i64());
    let wdl: u64 = last["wdl"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap())
        .sum();
    assert_eq!(wdl, 1000);
    assert_eq!(
        last["pv"]["san"].as_array().unwrap().len(),
        last["pv"]["uci"].as_array().unwrap().len()
    );
    let (name, best) = events.last().unwrap();
    assert_eq!(name, "bestmove");
    assert!(best["best"]["san"].is_string() && best["best"]["uci"].is_string());
}

/// Opens a search stream and reads its head; the stream stays open.
fn open_stream(server: &Server, page: &str) -> TcpStream {
    let mut stream = server.connect();
    let head =
        format!("GET /api/search?page={page} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut first = [0u8; 12];
    stream.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    stream
}

/// Whether the page has a search running, asked by stopping it.
fn stop(server: &Server, page: &str) -> bool {
    let answer = server.post("/api/stop", &json!({ "page": page })).json();
    answer["stopped"].as_bool().unwrap()
}

#[test]
fn searches_stop_when_asked_or_when_the_page_goes_away() {
    let server = Server::start();
    // Stopped by /api/stop: the stream ends with its best move.
    let mut stream = open_stream(&server, "asked");
    assert!(stop(&server, "asked"));
    let mut rest = String::new();
    stream.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("event: bestmove"), "{rest}");

    // A page that goes away (its connection closed) stops its search: the server finds out at
    // its next write, an event or the keep-alive comment each second.
    let stream = open_stream(&server, "gone");
    drop(stream);
    std::thread::sleep(Duration::from_millis(3500));
    assert!(!stop(&server, "gone"), "still searching for a page gone");

    // A new search of a page stops its old one; at most four run; a fifth page waits, then
    // gets a 503; the server answers as before.
    let mut first = open_stream(&server, "p1");
    let _second = open_stream(&server, "p1");
    let mut old = String::new();
    first.read_to_string(&mut old).unwrap();
    assert!(old.contains("event: bestmove"), "{old}");
    let _others: Vec<TcpStream> = ["p2", "p3", "p4"]
        .iter()
        .map(|page| open_stream(&server, page))
        .collect();
    let refused = server.get("/api/search?page=p5");
    assert_eq!(refused.status, 503);
    assert!(refused.json()["error"]
        .as_str()
        .unwrap()
        .contains("searches"));
    for page in ["p1", "p2", "p3", "p4"] {
        assert!(stop(&server, page), "{page}");
    }
    assert_eq!(server.get("/").status, 200);
}

#[test]
fn bad_input_gets_a_4xx_and_the_server_keeps_serving() {
    let server = Server::start();
    let over_limit = vec![b' '; (1 << 20) + 1];
    let cases: Vec<(&str, &str, Vec<u8>, u16, &str)> = vec![
        (
            "POST",
            "/api/position",
            json!({ "fen": "8/8/8/8/8/8/8/8 w - - 0 1" })
                .to_string()
                .into_bytes(),
            400,
            "bad FEN",
        ),
        (
            "POST",
            "/api/position",
            json!({ "fen": "not a fen" }).to_string().into_bytes(),
            400,
            "bad FEN",
        ),
        (
            "POST",
            "/api/position",
            json!({ "moves": ["e2e5"] }).to_string().into_bytes(),
            400,
            "e2e5",
        ),
        (
            "POST",
            "/api/position",
            json!({ "moves": "e2e4" }).to_string().into_bytes(),
            400,
            "list",
        ),
        (
            "POST",
            "/api/move",
            json!({ "fen": START_FEN, "move": "Ke2" })
                .to_string()
                .into_bytes(),
            400,
            "Ke2",
        ),
        (
            "POST",
            "/api/move",
            json!({ "fen": START_FEN }).to_string().into_bytes(),
            400,
            "\"move\" is missing",
        ),
        (
            "POST",
            "/api/pgn",
            json!({ "pgn": "1. e4 e5 2. Ke3 *" })
                .to_string()
                .into_bytes(),
            400,
            "malformed PGN",
        ),
        (
            "POST",
            "/api/pgn",
            json!({ "pgn": "" }).to_string().into_bytes(),
            400,
            "malformed PGN",
        ),
        (
            "POST",
            "/api/plans",
            json!({ "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1" })
                .to_string()
                .into_bytes(),
            400,
            "bad FEN",
        ),
        (
            "POST",
            "/api/annotate",
            json!({ "pgn": "1. e4 e5", "movetime": 0 })
                .to_string()
                .into_bytes(),
            400,
            "movetime",
        ),
        (
            "POST",
            "/api/annotate",
            json!({ "pgn": "1. e4 Ke7 2. Ke3 *" })
                .to_string()
                .into_bytes(),
            400,
            "malformed PGN",
        ),
        (
            "POST",
            "/api/move",
            b"{\"fen\": ".to_vec(),
            400,
            "malformed JSON",
        ),
        ("POST", "/api/move", b"[1, 2]".to_vec(), 400, "JSON object"),
        ("POST", "/api/position", over_limit, 413, "limit"),
        ("GET", "/api/nothing", Vec::new(), 404, "nothing at"),
        ("GET", "/api/position", Vec::new(), 405, "use POST"),
        ("POST", "/", Vec::new(), 405, "use GET"),
        ("POST", "/api/search?page=x", Vec::new(), 405, "use GET"),
        ("GET", "/api/search?fen=x", Vec::new(), 400, "\"page\""),
        (
            "GET",
            "/api/search?page=x&fen=bad",
            Vec::new(),
            400,
            "bad FEN",
        ),
        (
            "GET",
            "/api/search?page=x&multipv=99",
            Vec::new(),
            400,
            "multipv",
        ),
        (
            "GET",
            "/api/search?page=x&movetime=0",
            Vec::new(),
            400,
            "movetime",
        ),
        ("GET", "/api/search?page=a%2", Vec::new(), 400, "escape"),
        ("GET", "/api/search?page=a/b", Vec::new(), 400, "letters"),
        (
            "GET",
            "/api/search?page=x&fen=7k%2F5Q2%2F6K1%2F8%2F8%2F8%2F8%2F8%20b%20-%20-%200%201",
            Vec::new(),
            400,
            "stalemate",
        ),
        ("POST", "/api/stop", b"{}".to_vec(), 400, "\"page\""),
    ];
    for (method, path, body, status, words) in cases {
        let answer = server.request(method, path, &body);
        let what = format!(
            "{method} {path} {}",
            String::from_utf8_lossy(&body[..body.len().min(80)])
        );
        assert_eq!(answer.status, status, "{what}: {}", answer.text());
        let message = answer.json()["error"].as_str().unwrap().to_string();
        assert!(message.contains(words), "{what}: {message}");
        assert_eq!(server.get("/").status, 200, "after {what}");
    }
    // A body declared far beyond the memory at hand is refused without being read.
    let mut stream = server.connect();
    stream
        .write_all(
            b"POST /api/position HTTP/1.1\r\nHost: test\r\nContent-Length: 1000000000000000\r\n\r\n",
        )
        .unwrap();
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 413");
    assert_eq!(server.get("/").status, 200);
}

/// Client threads of the load test.
const LOAD_CLIENTS: usize = 16;
/// Requests each client sends, one after another.
const LOAD_REQUESTS: usize = 25;

#[test]
fn load_test() {
    let server = Server::start();
    let started = Instant::now();
    let results: Vec<(usize, usize, Duration)> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..LOAD_CLIENTS)
            .map(|client| {
                let server = &server;
                scope.spawn(move || {
                    let (mut errors, mut sent) = (0, 0);
                    let mut slowest = Duration::ZERO;
                    for i in 0..LOAD_REQUESTS {
                        let begun = Instant::now();
                        let request = std::panic::AssertUnwindSafe(|| match (client + i) % 3 {
                            0 => server.get("/").status,
                            1 => {
                                server
                                    .post("/api/position", &json!({ "moves": ["e2e4"] }))
                                    .status
                            }
                            _ => {
                                let body = json!({ "fen": START_FEN, "move": "Nf3" });
                                server.post("/api/move", &body).status
                            }
                        });
                        let answer = std::panic::catch_unwind(request);
                        slowest = slowest.max(begun.elapsed());
                        sent += 1;
                        if answer.ok() != Some(200) {
                            errors += 1;
                        }
                    }
                    (sent, errors, slowest)
                })
            })
            .collect();
        clients.into_iter().map(|c| c.join().unwrap()).collect()
    });
    let sent: usize = results.iter().map(|r| r.0).sum();
    let errors: usize = results.iter().map(|r| r.1).sum();
    let slowest = results.iter().map(|r| r.2).max().unwrap();
    let elapsed = started.elapsed();
    println!(
        "load test: {LOAD_CLIENTS} clients, {sent} requests, {errors} errors, {:.2} s, slowest \
         {:.0} ms",
        elapsed.as_secs_f64(),
        slowest.as_secs_f64() * 1000.0
    );
    assert_eq!(sent, LOAD_CLIENTS * LOAD_REQUESTS);
    assert_eq!(errors, 0);
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    assert_eq!(server.get("/").status, 200);
}
