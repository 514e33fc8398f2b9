//! Transposition table (after a diploma thesis, docs/sources.md#transposition-table): positions
//! already searched, with score, bound, depth, best move and whether the position was on a
//! principal variation, shared by all search threads.
//!
//! Design note: the 64-bit Zobrist key is split in two, as the thesis prescribes: the high 32 bits
//! choose the bucket (the index key) and the low 32 bits are stored to verify that an entry
//! belongs to the position (the verification key). A bucket is one cache line of four entries.
//! Replacement is depth-preferred with aging: a new result overwrites the entry of the same
//! position, otherwise the entry with the least `depth - 8 × age`. Each entry is two atomic
//! words, the first being the data XOR-ed with the verification key, so a torn write by another
//! thread is detected as a miss instead of being read as garbage.

mod memory;

use crate::bound::Bound;
use crate::rules::{Move, Piece, Square};
use memory::ZeroedSlice;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// Best or refutation move, if one was stored (not checked for legality).
    pub mv: Option<Move>,
    /// Score, already corrected from "distance to mate from here" to the probing ply.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Depth of the search that produced the score.
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
    /// Whether the position was on a principal variation, or had been, when it was stored:
    /// such a node is searched with PV-node reductions even in a null window.
    pub pv: bool,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; 4],
}

/// The shared table.
pub struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    generation: AtomicU8,
}

/// Scores beyond this are mate scores, stored relative to the node (Kornilov's "INFINITY − ply").
pub const MATE_BOUND: i32 = crate::search::MATE - crate::search::MAX_PLY as i32;

fn encode_move(mv: Option<Move>) -> u64 {
    let Some(mv) = mv else { return 0 };
    let promo = match mv.promotion {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(_) => 4,
    };
    // Bit 15 marks "a move is present" so that a1a1 cannot be confused with none.
    (1 << 15) | (mv.from as u64) | ((mv.to as u64) << 6) | (promo << 12)
}

fn decode_move(bits: u64) -> Option<Move> {
    if bits & (1 << 15) == 0 {
        return None;
    }
    let promotion = match (bits >> 12) & 7 {
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => None,
    };
    Some(Move {
        from: Square::index((bits & 63) as usize),
        to: Square::index(((bits >> 6) & 63) as usize),
        promotion,
    })
}

/// Mate scores are stored as distance from this node, and read back as distance from the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

fn spread(verify: u32) -> u64 {
    verify as u64 | ((verify as u64) << 32)
}

impl TranspositionTable {
    /// A table using about `megabytes` of memory (at least one bucket). If that much memory
    /// cannot be had, the table falls back to 1 MB rather than aborting.
    pub fn new(megabytes: usize) -> Self {
        let mut table = TranspositionTable {
            buckets: ZeroedSlice::empty(),
            generation: AtomicU8::new(0),
        };
        if table.resize(megabytes).is_err() {
            let _ = table.resize(1);
        }
        table
    }

    /// Reallocates to about `megabytes`, discarding the contents. When the memory cannot be
    /// allocated, the table keeps its old size (and contents) and the reason is returned;
    /// an allocation failure must not abort the engine (`setoption name Hash value 65536`
    /// on a smaller machine did).
    pub fn resize(&mut self, megabytes: usize) -> Result<(), String> {
        let bytes = megabytes
            .max(1)
            .checked_mul(1 << 20)
            .ok_or_else(|| format!("{megabytes} MB is too large"))?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // Free the old table before touching the new one's pages, so both are never held.
        let old = &mut self.buckets;
        // SAFETY: an all-zero bucket is an empty one (`Bucket::default`).
        let buckets = unsafe { ZeroedSlice::new(count, || *old = ZeroedSlice::empty()) }
            .ok_or_else(|| format!("cannot allocate {megabytes} MB for the hash table"))?;
        self.buckets = buckets;
        Ok(())
    }

    /// Size in megabytes.
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for bucket in self.buckets.iter_mut() {
            *bucket = Bucket::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries age.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key >> 32) * self.buckets.len() as u64) >> 32;
        &self.buckets[index as usize]
    }

    /// Hints the CPU to fetch the bucket of `key` ahead of the probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint; the pointer refers to a live bucket of this table.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`; mate scores are corrected for `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let verify = spread(key as u32);
        for entry in &self.bucket(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            if data != 0 && entry.check.load(Ordering::Relaxed) ^ data == verify {
                return Some(unpack(data, ply));
            }
        }
        None
    }

    /// Stores a search result.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let verify = spread(key as u32);
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        let mut mv = mv;
        for entry in &bucket.entries {
            let data = entry.data.load(Ordering::Relaxed);
            let same = data != 0 && entry.check.load(Ordering::Relaxed) ^ data == verify;
            if data == 0 || same {
                if same {
                    let old = unpack(data, ply);
                    // A much deeper bound is worth more than a shallow new one.
                    if bound != Bound::Exact && old.depth > depth + 3 {
                        return;
                    }
                    mv = mv.or(old.mv);
                }
                victim = entry;
                break;
            }
            let age = (generation.wrapping_sub(((data >> 58) & 63) as u8) & 63) as i32;
            let worth = stored_depth(data) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = entry;
            }
        }
        let new = pack(mv, score, eval, depth, bound, pv, generation, ply);
        victim.data.store(new, Ordering::Relaxed);
        victim.check.store(new ^ verify, Ordering::Relaxed);
    }

    /// Permille of sampled entries filled in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = (self.generation.load(Ordering::Relaxed) & 63) as u64;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for entry in &bucket.entries {
                let data = entry.data.load(Ordering::Relaxed);
                if data != 0 && (data >> 58) & 63 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

// Layout of the data word: move 16 bits | score 16 | eval 16 | depth 7 | PV 1 | bound 2 |
// generation 6. Depths beyond 127 (never reached: `MAX_PLY` is 128) are stored as 127.
#[allow(clippy::too_many_arguments)]
fn pack(
    mv: Option<Move>,
    score: i32,
    eval: i32,
    depth: i32,
    bound: Bound,
    pv: bool,
    generation: u8,
    ply: usize,
) -> u64 {
    let bound_bits = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    encode_move(mv)
        | ((score_to_tt(score, ply) as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 127) as u64) << 48)
        | (u64::from(pv) << 55)
        | (bound_bits << 56)
        | ((generation as u64 & 63) << 58)
}

/// The depth field of a data word (replacement reads it without unpacking the rest).
fn stored_depth(data: u64) -> i32 {
    ((data >> 48) & 0x7f) as i32
}

fn unpack(data: u64, ply: usize) -> TtHit {
    TtHit {
        mv: decode_move(data & 0xffff),
        score: score_from_tt((data >> 16) as u16 as i16 as i32, ply),
        eval: (data >> 32) as u16 as i16 as i32,
        depth: stored_depth(data),
        bound: match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
        pv: (data >> 55) & 1 == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    /// Regression: an allocation failure (`setoption name Hash value 65536` on a 24 GB machine)
    /// aborted the process; now the table keeps its size and says why.
    #[test]
    fn impossible_size_keeps_the_table() {
        let mut tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        tt.store(key, 0, None, 5, 5, 3, Bound::Exact, false);
        for megabytes in [1usize << 40, usize::MAX] {
            let err = tt.resize(megabytes).expect_err("cannot be allocated");
            assert!(err.contains("MB"), "{err}");
            assert_eq!(tt.megabytes(), 1);
            assert!(tt.probe(key, 0).is_some(), "contents kept");
        }
        assert!(TranspositionTable::new(1 << 40).megabytes() == 1);
    }

    #[test]
    fn store_and_probe_with_mate_correction() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        let mv: Move = "e7e8q".parse().unwrap();
        // A mate found 3 plies below a node at ply 5 is stored relative to that node...
        tt.store(key, 5, Some(mv), MATE - 8, 12, 7, Bound::Exact, true);
        // ...and read back at ply 2 as a mate 3 plies below ply 2.
        let hit = tt.probe(key, 2).unwrap();
        assert_eq!(hit.score, MATE - 5);
        assert_eq!(hit.mv, Some(mv));
        assert_eq!(
            (hit.eval, hit.depth, hit.bound, hit.pv),
            (12, 7, Bound::Exact, true)
        );
        assert!(
            tt.probe(key ^ 1, 2).is_none(),
            "a different verification key must miss"
        );
    }

    #[test]
    fn the_pv_flag_and_the_depth_keep_to_their_bits() {
        let tt = TranspositionTable::new(1);
        let key = 0x0bad_cafe_0000_0001;
        tt.store(key, 0, None, -3, 4, 200, Bound::Upper, false);
        let hit = tt.probe(key, 0).unwrap();
        assert_eq!((hit.depth, hit.pv, hit.bound), (127, false, Bound::Upper));
        tt.store(key ^ 1, 0, None, -3, 4, 9, Bound::Lower, true);
        let hit = tt.probe(key ^ 1, 0).unwrap();
        assert_eq!((hit.depth, hit.pv, hit.bound), (9, true, Bound::Lower));
    }

    #[test]
    fn deeper_entries_survive_replacement() {
        let mut tt = TranspositionTable::new(1);
        tt.resize(1).unwrap();
        let base = 0xfeed_0000_0000_0000u64;
        // Five positions in the same bucket (same high bits), different verification keys.
        tt.store(base | 1, 0, None, 10, 0, 20, Bound::Lower, false);
        for i in 2..6u64 {
            tt.store(base | i, 0, None, 10, 0, 1, Bound::Lower, false);
        }
        assert!(tt.probe(base | 1, 0).is_some());
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(base | 1, 0).is_none());
    }
}
