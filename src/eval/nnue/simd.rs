//! The net's two hot loops — adding and removing weight rows in an accumulator, and the output
//! layer's squared clipped ReLU dot product — as AVX2 kernels with a scalar fallback, chosen
//! once at run time.
//!
//! Design note: both kernels compute exactly the same integers. Additions wrap in both (the
//! net's weight limit keeps an accumulator far from the i16 range, so they never do in
//! practice); in the output, `clamp(x, 0, QA) · w` fits an i16 because |w| ≤ 127, which is what
//! lets AVX2 multiply in 16 bits and widen with `madd` (the same trick as other engines' SCReLU
//! kernels); the i32 sums wrap alike in any order.

use super::QA;

/// Which implementation of the kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust, for any machine.
    Scalar,
    /// 256-bit integer vectors (x86-64 with AVX2).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
        Kernel::Scalar
    }

    /// Every kernel this processor runs (for tests that compare them).
    pub fn available() -> Vec<Kernel> {
        let mut kernels = vec![Kernel::Scalar];
        if Kernel::detect() != Kernel::Scalar {
            kernels.push(Kernel::detect());
        }
        kernels
    }

    /// `dst = src + Σ adds − Σ subs`, element by element; every slice has `dst`'s length, a
    /// multiple of 16.
    pub fn update(self, dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        debug_assert!(dst.len() == src.len() && dst.len().is_multiple_of(16));
        match self {
            Kernel::Scalar => update_scalar(dst, src, adds, subs),
            // SAFETY: `Avx2` is only chosen when the processor has AVX2; lengths are checked
            // by the caller's invariant (whole 16-lane chunks, equal lengths).
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { avx2::update(dst, src, adds, subs) },
        }
    }

    /// `Σ clamp(us, 0, QA)² · w[..n] + Σ clamp(them, 0, QA)² · w[n..]`, in i32 (wrapping).
    pub fn output(self, us: &[i16], them: &[i16], weights: &[i16]) -> i32 {
        debug_assert!(us.len() == them.len() && weights.len() == 2 * us.len());
        let (w_us, w_them) = weights.split_at(us.len());
        match self {
            Kernel::Scalar => {
                screlu_dot_scalar(us, w_us).wrapping_add(screlu_dot_scalar(them, w_them))
            }
            // SAFETY: as in `update`.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe {
                avx2::screlu_dot(us, w_us).wrapping_add(avx2::screlu_dot(them, w_them))
            },
        }
    }
}

fn update_scalar(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    for (i, d) in dst.iter_mut().enumerate() {
        let mut v = src[i];
        for a in adds {
            v = v.wrapping_add(a[i]);
        }
        for s in subs {
            v = v.wrapping_sub(s[i]);
        }
        *d = v;
    }
}

fn screlu_dot_scalar(acc: &[i16], weights: &[i16]) -> i32 {
    acc.iter().zip(weights).fold(0i32, |sum, (&x, &w)| {
        let v = x.clamp(0, QA as i16);
        // Exact in i16 (|w| ≤ 127), as in the vector kernel.
        let vw = v.wrapping_mul(w);
        sum.wrapping_add(i32::from(vw) * i32::from(v))
    })
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::QA;
    use std::arch::x86_64::*;

    /// Dispatches the row counts a move makes (a quiet move or a promotion 1 and 1, a capture
    /// 1 and 2, castling 2 and 2) to copies of the kernel whose counts are constants: their
    /// inner loops unroll, where the general copy walks the lists of rows for each 16 lanes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        match (adds, subs) {
            (&[a], &[s]) => update_rows(dst, src, [a], [s]),
            (&[a], &[s1, s2]) => update_rows(dst, src, [a], [s1, s2]),
            (&[a1, a2], &[s1, s2]) => update_rows(dst, src, [a1, a2], [s1, s2]),
            _ => update_rows(dst, src, adds, subs),
        }
    }

    #[target_feature(enable = "avx2")]
    unsafe fn update_rows<'a>(
        dst: &mut [i16],
        src: &[i16],
        adds: impl AsRef<[&'a [i16]]>,
        subs: impl AsRef<[&'a [i16]]>,
    ) {
        let (adds, subs) = (adds.as_ref(), subs.as_ref());
        for chunk in 0..dst.len() / 16 {
            let at = chunk * 16;
            let mut v = _mm256_loadu_si256(src.as_ptr().add(at).cast());
            for a in adds {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(a.as_ptr().add(at).cast()));
            }
            for s in subs {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(s.as_ptr().add(at).cast()));
            }
            _mm256_storeu_si256(dst.as_mut_ptr().add(at).cast(), v);
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for chunk in 0..acc.len() / 16 {
            let at = chunk * 16;
            let x = _mm256_loadu_si256(acc.as_ptr().add(at).cast());
            let w = _mm256_loadu_si256(weights.as_ptr().add(at).cast());
            let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            let vw = _mm256_mullo_epi16(v, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
        lanes.iter().fold(0, |s, &l| s.wrapping_add(l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::Rng;

    #[test]
    fn every_kernel_computes_the_same_integers() {
        let mut rng = Rng::for_stream(3, 0);
        let mut row = |n: usize, limit: i32| -> Vec<i16> {
            (0..n).map(|_| rng.symmetric(limit) as i16).collect()
        };
        for n in [16, 48, 256] {
            let src = row(n, 600);
            let (a1, a2, a3, s1, s2) = (
                row(n, 500),
                row(n, 500),
                row(n, 500),
                row(n, 500),
                row(n, 500),
            );
            // The counts a move makes (the AVX2 kernel's copies with constant counts), and a
            // refresh's (the general copy).
            type Rows<'a> = &'a [&'a [i16]];
            let sums: [(Rows, Rows); 4] = [
                (&[&a1], &[&s1]),
                (&[&a1], &[&s1, &s2]),
                (&[&a1, &a2], &[&s1, &s2]),
                (&[&a1, &a2, &a3], &[]),
            ];
            for (adds, subs) in sums {
                let mut outputs = Vec::new();
                for kernel in Kernel::available() {
                    let mut dst = vec![0; n];
                    kernel.update(&mut dst, &src, adds, subs);
                    outputs.push(dst);
                }
                assert!(outputs.windows(2).all(|w| w[0] == w[1]), "width {n}");
                let expected: Vec<i16> = (0..n)
                    .map(|i| {
                        let added: i16 = adds.iter().map(|a| a[i]).sum();
                        let taken: i16 = subs.iter().map(|s| s[i]).sum();
                        src[i] + added - taken
                    })
                    .collect();
                assert_eq!(outputs[0], expected, "width {n}");
            }
            let weights = row(2 * n, 127);
            let them = row(n, 400);
            let mut results = Vec::new();
            for kernel in Kernel::available() {
                let mut dst = vec![0; n];
                kernel.update(&mut dst, &src, &[&a1, &a2], &[&s1, &s2]);
                let out = kernel.output(&dst, &them, &weights);
                results.push((dst, out));
            }
            assert!(results.windows(2).all(|w| w[0] == w[1]), "width {n}");
            let (dst, out) = &results[0];
            let expected: i64 = dst
                .iter()
                .chain(&them)
                .zip(&weights)
                .map(|(&x, &w)| i64::from(x.clamp(0, 255)).pow(2) * i64::from(w))
                .sum();
            assert_eq!(i64::from(*out), expected);
        }
    }
}
