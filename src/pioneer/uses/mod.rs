//! Layer 7, uses: what PIONEER is used for — explaining a position's plans (`plan`, drawn by
//! `svg`), solving studies by a search restricted to zone moves (`study`) and proving its
//! verdict against every defence (`proof`), and guiding the main search (`guide`).
//!
//! Nothing inside `pioneer` uses this layer; `proof` builds on `study`.

pub mod guide;
pub mod plan;
pub mod proof;
pub mod study;
pub mod svg;
