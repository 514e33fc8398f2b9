//! Small helpers shared by the tools.

use std::io::Write;
use std::path::Path;

/// FNV-1a, 64 bits: the checksum of Tropa's binary files (book, nets, self-play data).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// A small seeded generator (xorshift64*): self-play games, training order and tests must be
/// reproducible, not cryptographic.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Stream `index` of the generators seeded `seed` (splitmix64 of both, never zero).
    pub fn for_stream(seed: u64, index: u64) -> Rng {
        let mut z = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (> 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `-limit..=limit`.
    pub fn symmetric(&mut self, limit: i32) -> i32 {
        self.below(2 * limit as usize + 1) as i32 - limit
    }

    /// A float in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Writes `bytes` to `path` so that a crash at any moment leaves either the old file or the new
/// one, never a mixture: the data goes to a temporary file in the same directory, is flushed to
/// disk, and then renamed over the target.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "path has no file name")
    })?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = std::fs::File::open(&dir) {
            // Persist the rename itself; not all platforms allow syncing a directory.
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    } else {
        remove_stale_temporaries(&dir, &name.to_string_lossy());
    }
    result
}

/// Removes the temporary files that writers of `name` killed in mid-write left behind. A
/// temporary carries its writer's process id; it is stale when that process no longer exists.
/// Only where `/proc` tells (Linux): elsewhere nothing is removed, as a live writer's file must
/// never be.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let proc_fs = Path::new("/proc/self");
    if !proc_fs.exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let Some(pid) = file
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_contents_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("tropa-util-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("file.txt");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_temporary_of_a_killed_writer_is_removed_by_the_next_write() {
        let dir = std::env::temp_dir().join(format!("tropa-util-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.tbk");
        // Process ids above the kernel's maximum (2^22) never exist.
        let stale = dir.join(".book.tbk.4294967295.tmp");
        let other = dir.join(".other.tbk.4294967295.tmp");
        for f in [&stale, &other] {
            std::fs::write(f, b"half").unwrap();
        }
        write_atomically(&path, b"whole").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"whole");
        assert_eq!(!stale.exists(), Path::new("/proc/self").exists());
        assert!(other.exists(), "another file's temporary is left alone");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
