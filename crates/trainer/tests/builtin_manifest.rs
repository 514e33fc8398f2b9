//! The built-in net's manifest (`src/eval/nnue/default.json`) describes the net that is built
//! in: its `net_sha256` is that of `src/eval/nnue/default.nnue`, and every data chunk it names
//! is in `data/selfplay/` with the checksum the manifest recorded, so that the net can be
//! trained again. A new net committed without its manifest, or its data deleted or rewritten,
//! fails here.

use std::path::PathBuf;
use tropa_trainer::manifest::sha256_file;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_manifest_names_the_built_in_net_and_its_data() {
    let nnue = repository().join("src/eval/nnue");
    let text = std::fs::read_to_string(nnue.join("default.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        manifest["net_sha256"].as_str(),
        Some(sha256_file(&nnue.join("default.nnue")).unwrap().as_str()),
        "default.json is not the manifest of default.nnue"
    );
    let data = manifest["data"].as_array().expect("a list of data files");
    assert!(!data.is_empty());
    for chunk in data {
        let file = chunk["file"].as_str().unwrap();
        let path = repository().join(file);
        assert!(path.exists(), "{file}: the built-in net learned from it");
        assert_eq!(
            chunk["sha256"].as_str(),
            Some(sha256_file(&path).unwrap().as_str()),
            "{file} changed since the built-in net learned from it"
        );
    }
}
