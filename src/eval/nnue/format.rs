//! The net file: a versioned header, the quantised weights, and a checksum.
//!
//! Design note: the file is the in-memory arrays (little-endian), so loading is a copy and a
//! check. Layout, version 3 (K king buckets, B output buckets):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `TropaNN\0` |
//! | 8 | 2 | format version (3) |
//! | 10 | 2 | N, accumulator width per perspective (a multiple of 16, at most 4096) |
//! | 12 | 2 | inputs per king bucket (768) |
//! | 14 | 2 | QA, accumulator quantisation (255) |
//! | 16 | 2 | QB, output-weight quantisation (64) |
//! | 18 | 2 | scale, centipawns per unit of the net's float output (50..=2000; trained at 400) |
//! | 20 | 2 | B, output buckets (1..=16) |
//! | 22 | 2 | K, king buckets (1..=32) |
//! | 24 | 64 | the king bucket of each square of the king, seen from its own side |
//! | 88 | 1 | 1: a king on files e–h sees the board mirrored; 0: never |
//! | 89 | 7 | reserved, 0 |
//! | 96 | 2·768·K·N | feature weights (i16), king bucket by bucket, feature by feature, N each |
//! | … | 2N | accumulator biases (i16) |
//! | … | 4N·B | output weights (i16, within ±127), per bucket the side to move's half first |
//! | … | 4B | output biases (i32, in units of QA·QB), bucket by bucket |
//! | … | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! Version 2 is a net without king buckets: its header ends at byte 24 (bytes 22..24 reserved,
//! 0). Version 1, the format of the first nets, is version 2 with one bucket and bytes 20..24
//! zero. A net is written in the oldest version that holds it, so a net's file stays byte for
//! byte what it was: the checksum by which a self-play run names the net that played it (and
//! the manifests' hashes) does not change with the writer. Reading checks the size, magic,
//! version, every constant and the scale, the king bucket table, the reserved fields, the
//! checksum and the output-weight range (the kernels rely on it), so a net that loads evaluates
//! without overflow checks. Every failure is an error that says what is wrong.

use super::{
    KingBuckets, Network, INPUTS, MAX_OUTPUT_BUCKETS, MAX_OUTPUT_WEIGHT, QA, QB, SCALE_RANGE,
};
use crate::util::{append_checksum, checked_body, CHECKSUM_BYTES};
use std::fmt;
use std::path::Path;

/// The file signature.
pub const MAGIC: [u8; 8] = *b"TropaNN\0";
/// The format version of a net with king buckets (Tropa reads versions 1 to 3).
pub const VERSION: u16 = 3;
/// Bytes of the header of versions 1 and 2.
pub const HEADER: usize = 24;
/// Bytes of the header of version 3.
pub const KING_HEADER: usize = 96;
/// Widest accumulator a file may declare.
pub const MAX_HIDDEN: usize = 4096;

/// Why a net could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetError(pub String);

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

/// Bytes of a file holding a net of width `hidden` with `buckets` output buckets and
/// `king_buckets` (a header of `KING_HEADER` bytes unless `SINGLE`).
pub fn file_size(hidden: usize, buckets: usize, king_buckets: &KingBuckets) -> usize {
    let header = if king_buckets.is_single() {
        HEADER
    } else {
        KING_HEADER
    };
    let inputs = INPUTS * king_buckets.count();
    header + 2 * (inputs * hidden + hidden + 2 * hidden * buckets) + 4 * buckets + CHECKSUM_BYTES
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

impl Network {
    /// The file image of the net, in the oldest version that holds it (see the design note).
    pub fn to_bytes(&self) -> Vec<u8> {
        let kings = self.king_buckets;
        let mut out = Vec::with_capacity(file_size(self.hidden, self.buckets(), &kings));
        out.extend_from_slice(&MAGIC);
        let (version, buckets, king_count) = match (kings.is_single(), self.buckets()) {
            (true, 1) => (1, 0, 0),
            (true, b) => (2, b as u16, 0),
            (false, b) => (VERSION, b as u16, kings.count() as u16),
        };
        for field in [
            version,
            self.hidden as u16,
            INPUTS as u16,
            QA as u16,
            QB as u16,
            self.scale() as u16,
            buckets,
            king_count,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        if version == VERSION {
            out.extend_from_slice(kings.table());
            out.push(u8::from(kings.mirrored()));
            out.extend_from_slice(&[0; KING_HEADER - HEADER - 65]);
        }
        for array in [&self.feature_weights, &self.biases, &self.output_weights] {
            for w in array.iter() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for bias in &self.output_biases {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        append_checksum(&mut out);
        out
    }

    /// Reads a net from its file image.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let fail = |reason: String| Err(NetError(reason));
        if bytes.len() < HEADER + CHECKSUM_BYTES {
            return fail(format!("{} bytes are too few for a net", bytes.len()));
        }
        if bytes[..8] != MAGIC {
            return fail("not a Tropa net (wrong magic)".into());
        }
        let version = u16_at(bytes, 8);
        if !(1..=VERSION).contains(&version) {
            return fail(format!(
                "net format version {version}, this Tropa reads 1 to {VERSION}"
            ));
        }
        if version == VERSION && bytes.len() < KING_HEADER + CHECKSUM_BYTES {
            return fail(format!("{} bytes are too few for a net", bytes.len()));
        }
        let hidden = usize::from(u16_at(bytes, 10));
        if hidden == 0 || hidden % 16 != 0 || hidden > MAX_HIDDEN {
            return fail(format!(
                "accumulator width {hidden} is not a multiple of 16 in 16..={MAX_HIDDEN}"
            ));
        }
        let constants = [
            ("inputs", u16_at(bytes, 12), INPUTS as u16),
            ("QA", u16_at(bytes, 14), QA as u16),
            ("QB", u16_at(bytes, 16), QB as u16),
        ];
        for (name, found, expected) in constants {
            if found != expected {
                return fail(format!("{name} is {found}, this Tropa uses {expected}"));
            }
        }
        let scale = i32::from(u16_at(bytes, 18));
        if !SCALE_RANGE.contains(&scale) {
            return fail(format!(
                "scale {scale} is outside {}..={}",
                SCALE_RANGE.start(),
                SCALE_RANGE.end()
            ));
        }
        let buckets = match version {
            1 => 1,
            _ => usize::from(u16_at(bytes, 20)),
        };
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return fail(format!(
                "{buckets} output buckets, this Tropa reads 1..={MAX_OUTPUT_BUCKETS}"
            ));
        }
        let reserved = match version {
            1 => 20..24,
            2 => 22..24,
            _ => 89..KING_HEADER,
        };
        if bytes[reserved].iter().any(|&b| b != 0) {
            return fail("reserved header field is not zero".into());
        }
        let king_buckets = if version == VERSION {
            let table = bytes[HEADER..HEADER + 64].try_into().expect("64 bytes");
            let mirrored = match bytes[88] {
                0 => false,
                1 => true,
                other => return fail(format!("mirroring flag {other} is neither 0 nor 1")),
            };
            match KingBuckets::new(usize::from(u16_at(bytes, 22)), table, mirrored) {
                Ok(layout) => layout,
                Err(reason) => return fail(reason),
            }
        } else {
            KingBuckets::SINGLE
        };
        let size = file_size(hidden, buckets, &king_buckets);
        if bytes.len() != size {
            return fail(format!(
                "a net of width {hidden}, {buckets} output buckets and {} king buckets has {size} \
                 bytes, this file {} (truncated or padded)",
                king_buckets.count(),
                bytes.len()
            ));
        }
        let Some(body) = checked_body(bytes) else {
            return fail("checksum mismatch: the file is damaged".into());
        };
        let mut at = if version == VERSION {
            KING_HEADER
        } else {
            HEADER
        };
        let mut take = |count: usize| {
            let slice = &bytes[at..at + 2 * count];
            at += 2 * count;
            i16s(slice)
        };
        let feature_weights = take(INPUTS * king_buckets.count() * hidden);
        let biases = take(hidden);
        let output_weights = take(2 * hidden * buckets);
        let output_biases = body[body.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        if let Some(w) = output_weights
            .iter()
            .find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return fail(format!("output weight {w} is beyond ±{MAX_OUTPUT_WEIGHT}"));
        }
        let net = Network::from_parts(
            hidden,
            king_buckets,
            feature_weights,
            biases,
            output_weights,
            output_biases,
        );
        Ok(net.with_scale(scale).expect("scale checked above"))
    }

    /// Reads a net from a file; errors name the file.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetError(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes).map_err(|e| NetError(format!("{}: {e}", path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{random_bucketed_net, random_king_bucketed_net, random_net};
    use super::*;

    fn err(bytes: &[u8]) -> String {
        Network::from_bytes(bytes).unwrap_err().0
    }

    /// The error for `bytes` with `edit` applied (the checksum left as it was).
    fn err_after(bytes: &[u8], edit: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut edited = bytes.to_vec();
        edit(&mut edited);
        err(&edited)
    }

    /// `bytes` with `edit` applied to everything before the checksum, then sealed again, so
    /// that the checks behind the checksum see the edit.
    fn resealed(bytes: &[u8], edit: impl FnOnce(&mut [u8])) -> Vec<u8> {
        let mut body = bytes[..bytes.len() - CHECKSUM_BYTES].to_vec();
        edit(&mut body);
        append_checksum(&mut body);
        body
    }

    #[test]
    fn a_net_round_trips_through_its_file() {
        let net = random_net(32, 5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_size(32, 1, &KingBuckets::SINGLE));
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.hidden(), 32);
        let scaled = net.with_scale(282).unwrap().to_bytes();
        assert_eq!(Network::from_bytes(&scaled).unwrap().scale(), 282);
        let bucketed = random_bucketed_net(16, 8, 6);
        let bytes = bucketed.to_bytes();
        assert_eq!(bytes.len(), file_size(16, 8, &KingBuckets::SINGLE));
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!((back.buckets(), back.to_bytes()), (8, bytes));
    }

    #[test]
    fn a_net_with_one_bucket_is_written_and_read_as_version_1() {
        let bytes = random_net(32, 7).to_bytes();
        assert_eq!((u16_at(&bytes, 8), u16_at(&bytes, 20)), (1, 0));
        assert_eq!(Network::from_bytes(&bytes).unwrap().buckets(), 1);
        // Version 1 knew no buckets: a count there is a damaged header.
        let counted = resealed(&bytes, |b| b[20] = 8);
        assert!(err(&counted).contains("reserved"));
        let bucketed = random_bucketed_net(16, 8, 6).to_bytes();
        assert_eq!((u16_at(&bucketed, 8), u16_at(&bucketed, 20)), (2, 8));
        // Version 2 knew no king buckets either.
        let kings = resealed(&bucketed, |b| b[22] = 4);
        assert!(err(&kings).contains("reserved"));
    }

    #[test]
    fn a_net_with_king_buckets_round_trips_as_version_3() {
        let four = KingBuckets::mirrored_four();
        let net = random_king_bucketed_net(16, four, 2, 8);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_size(16, 2, &four));
        assert_eq!(
            (u16_at(&bytes, 8), u16_at(&bytes, 20), u16_at(&bytes, 22)),
            (VERSION, 2, 4)
        );
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(*back.king_buckets(), four);
        assert_eq!(back.to_bytes(), bytes);
        let board = crate::rules::parse_fen(
            "r1bq1rk1/pp3ppp/2n2n2/3p4/3P4/2NB1N2/PP3PPP/R2QK2R w KQ - 0 10",
            false,
        )
        .unwrap();
        assert_eq!(back.evaluate_full(&board), net.evaluate_full(&board));
        // A bad table, flag or reserved byte behind a valid checksum.
        let table = resealed(&bytes, |b| b[HEADER + 9] = 4);
        assert!(err(&table).contains("names bucket 4 of 4"));
        let unused = resealed(&bytes, |b| b[HEADER..HEADER + 64].fill(0));
        assert!(err(&unused).contains("never used"));
        let flag = resealed(&bytes, |b| b[88] = 2);
        assert!(err(&flag).contains("mirroring flag 2"));
        let reserved = resealed(&bytes, |b| b[95] = 1);
        assert!(err(&reserved).contains("reserved"));
        let count = resealed(&bytes, |b| b[22] = 40);
        assert!(err(&count).contains("40 king buckets"));
        assert!(err(&bytes[..60]).contains("too few"));
        assert!(err(&bytes[..bytes.len() - 2]).contains("4 king buckets"));
    }

    #[test]
    fn bad_files_are_errors_that_say_why() {
        let bytes = random_net(16, 9).to_bytes();
        assert!(err(&bytes[..10]).contains("too few"));
        assert!(err(&bytes[..bytes.len() - 1]).contains("truncated"));
        assert!(err_after(&bytes, |b| b.push(0)).contains("truncated or padded"));
        assert!(err_after(&bytes, |b| b[1] = b'x').contains("magic"));
        assert!(err_after(&bytes, |b| b[8] = 4).contains("version 4"));
        assert!(err_after(&bytes, |b| b[23] = 1).contains("reserved"));
        let bucketed = random_bucketed_net(16, 2, 9).to_bytes();
        assert!(err_after(&bucketed, |b| b[20] = 17).contains("17 output buckets"));
        assert!(err_after(&bytes, |b| b[10] = 17).contains("multiple of 16"));
        assert!(err_after(&bytes, |b| b[14] = 1).contains("QA"));
        let scale = resealed(&bytes, |b| b[18..20].copy_from_slice(&10u16.to_le_bytes()));
        assert!(err(&scale).contains("scale 10 is outside"));
        assert!(err_after(&bytes, |b| b[HEADER + 100] ^= 4).contains("checksum"));
        // An output weight out of range behind a valid checksum.
        let wide = resealed(&bytes, |b| {
            let at = b.len() - 4 - 2;
            b[at..at + 2].copy_from_slice(&500i16.to_le_bytes());
        });
        assert!(err(&wide).contains("beyond"));
        let missing = Network::load(Path::new("/nonexistent/tropa.nnue")).unwrap_err();
        assert!(missing.0.contains("/nonexistent/tropa.nnue"));
    }
}
