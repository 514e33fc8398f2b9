//! Small helpers shared by the tools.
//!
//! Design note: Tropa's binary files (the book, the nets) end with the FNV-1a 64 checksum of
//! every byte before it, little-endian: `append_checksum` writes it and `checked_body` verifies
//! it, so every format seals its image the same way. (The self-play data checksums each game's
//! frame instead, ahead of the payload, so that a torn tail can be dropped; its frames call
//! `fnv1a64` directly.)
//!
//! Files are written through `tempfile`: the data goes to a uniquely named file in the target's
//! folder, which is flushed and then renamed over the target, so a crash leaves the old file or
//! the new one, never a mixture. A writer killed in mid-write can leave its temporary behind
//! (named `.tmp…`, never the target's name); it is never mistaken for the file itself.

use std::io::Write;
use std::path::{Path, PathBuf};

/// FNV-1a, 64 bits: the checksum of Tropa's binary files (book, nets, self-play data).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Bytes of the checksum that ends a file image (see the module note).
pub const CHECKSUM_BYTES: usize = 8;

/// Ends a file image with the checksum of every byte before it.
pub fn append_checksum(image: &mut Vec<u8>) {
    let sum = fnv1a64(image);
    image.extend_from_slice(&sum.to_le_bytes());
}

/// The body of a file image (every byte before its checksum), or `None` when the image is too
/// short to hold a checksum or the checksum does not match.
pub fn checked_body(image: &[u8]) -> Option<&[u8]> {
    let (body, sum) = image.split_at(image.len().checked_sub(CHECKSUM_BYTES)?);
    (fnv1a64(body).to_le_bytes() == sum).then_some(body)
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

/// The folder a file at `path` lives in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `bytes` to `path` atomically: either the old contents or the new ones, never a mixture.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if path.file_name().is_none() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "path has no file name",
        ));
    }
    let dir = folder_of(path);
    let mut file = temporary_for(path, &dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(&dir) {
        // Persist the rename itself; not all platforms allow syncing a directory.
        let _ = d.sync_all();
    }
    Ok(())
}

/// The temporary file in `dir` that will replace `path`, with the permissions a plain write
/// would leave: those of the file it replaces, or for a new file what `File::create` gives (0666
/// less the umask). `tempfile` alone makes files for their owner only, which would hide an SVG,
/// a PGN or a book from everyone else and change a replaced file's permissions.
fn temporary_for(path: &Path, dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let file = builder.tempfile_in(dir)?;
    #[cfg(unix)]
    if let Ok(existing) = std::fs::metadata(path) {
        file.as_file().set_permissions(existing.permissions())?;
    }
    Ok(file)
}

/// Checks, before any long work, that a file can be written at `path`: it has a file name, is
/// not a folder, and its folder exists and takes new files. The error names the path.
pub fn check_writable(path: &Path) -> Result<(), String> {
    let shown = path.display();
    if path.file_name().is_none() || path.is_dir() {
        return Err(format!("{shown}: not a file name"));
    }
    let dir = folder_of(path);
    if !dir.is_dir() {
        return Err(format!(
            "{shown}: the folder {} does not exist",
            dir.display()
        ));
    }
    tempfile::NamedTempFile::new_in(&dir)
        .map(drop)
        .map_err(|e| format!("{shown}: cannot write in {}: {e}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checksum_seals_the_bytes_before_it() {
        let mut image = b"TropaBk".to_vec();
        append_checksum(&mut image);
        assert_eq!(image.len(), 7 + CHECKSUM_BYTES);
        assert_eq!(image[7..], fnv1a64(b"TropaBk").to_le_bytes());
        assert_eq!(checked_body(&image), Some(&b"TropaBk"[..]));
        for at in 0..image.len() {
            let mut damaged = image.clone();
            damaged[at] ^= 0x10;
            assert_eq!(checked_body(&damaged), None, "byte {at}");
        }
        assert_eq!(checked_body(&image[1..]), None);
        assert_eq!(checked_body(&[0; 7]), None);
        let mut empty = Vec::new();
        append_checksum(&mut empty);
        assert_eq!(checked_body(&empty), Some(&[][..]));
    }

    #[test]
    fn replaces_contents_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file.txt");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn files_get_the_permissions_a_plain_write_gives() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // A new file: as `File::create` makes it (the umask applies to both).
        let plain = dir.path().join("plain.svg");
        std::fs::File::create(&plain).unwrap();
        let written = dir.path().join("written.svg");
        write_atomically(&written, b"<svg/>").unwrap();
        assert_eq!(mode(&written), mode(&plain));
        // A replaced file keeps its own.
        let perms = std::fs::Permissions::from_mode(0o640);
        std::fs::set_permissions(&written, perms).unwrap();
        write_atomically(&written, b"<svg></svg>").unwrap();
        assert_eq!(mode(&written), 0o640);
    }

    #[test]
    fn an_unwritable_place_is_refused_before_the_work() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_writable(&dir.path().join("new.pgn")).is_ok());
        let missing = dir.path().join("missing/new.pgn");
        let err = check_writable(&missing).unwrap_err();
        assert!(err.contains("does not exist"), "{err}");
        assert!(
            check_writable(dir.path()).is_err(),
            "a folder is not a file"
        );
        assert!(write_atomically(&missing, b"x").is_err());
    }
}
