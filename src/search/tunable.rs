//! A search constant that an SPSA run may tune (`params::TUNABLES`).
//!
//! Design note: in a normal build a tunable holds only its default, an immutable static whose
//! `get` the compiler folds into the code, so the engine is as fast as with a plain constant.
//! Built with the cargo feature `tune`, it also holds an atomic value that the UCI option of the
//! same name sets (`setoption name RFP_MARGIN value 80`), which is how a tuner plays two sets of
//! values against each other without a rebuild. The value is read with relaxed ordering: a
//! search only starts after `setoption` has returned.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable search constant: its name (also its UCI option in a `tune` build), default and
/// range.
#[derive(Debug)]
pub struct Tunable {
    /// The constant's name in `params`, and its option's.
    pub name: &'static str,
    /// The value of a normal build.
    pub default: i32,
    /// The smallest value a tuner may try.
    pub min: i32,
    /// The largest value a tuner may try.
    pub max: i32,
    #[cfg(feature = "tune")]
    value: AtomicI32,
}

impl Tunable {
    /// A tunable at `default`, to be tried within `min..=max`.
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32) -> Self {
        Tunable {
            name,
            default,
            min,
            max,
            #[cfg(feature = "tune")]
            value: AtomicI32::new(default),
        }
    }

    /// The value in force: the default, or in a `tune` build the value last set.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        #[cfg(feature = "tune")]
        {
            self.value.load(Ordering::Relaxed)
        }
        #[cfg(not(feature = "tune"))]
        {
            self.default
        }
    }

    /// Sets the value (a `tune` build only), clamped to the range.
    #[cfg(feature = "tune")]
    pub fn set(&self, value: i32) {
        self.value
            .store(value.clamp(self.min, self.max), Ordering::Relaxed);
    }

    /// The line of an SPSA input (OpenBench's and Fishtest's format: name, type, value, min,
    /// max, C_end, R_end), with a step of a twentieth of the range and the usual rate 0.002.
    pub fn spsa_line(&self) -> String {
        let c_end = (f64::from(self.max - self.min) / 20.0).max(0.5);
        format!(
            "{}, int, {}, {}, {}, {c_end}, 0.002",
            self.name, self.default, self.min, self.max
        )
    }
}
