// The controller's `Math` (asconfig.json `use`: Math=assembly/util/math/SmallMath): NativeMath with
// a smaller sin and cos. NativeMath inlines musl's argument reduction into both, each with the
// Payne-Hanek path for |x| >= 2^20*pi/2 (pio2_large_quot, ~0.6 KB). Our angles stay below 10
// radians (runner angles 0-359 degrees, +180 when reversed), so here sin and cos share one
// reduction, the same Cody-Waite scheme and kernels as NativeMath: bit-identical results for
// |x| < 2^20*pi/2. Larger arguments are first reduced modulo 2*pi (approximate; never happens).

let y0: f64 = 0;
let y1: f64 = 0;

/** x - n*pi/2 into (y0, y1), |x| < 2^20*pi/2; returns n (musl __rem_pio2, medium case). */
function reduce(x: f64, ix: u32): i32 {
  const pio2_1 = reinterpret<f64>(0x3ff921fb54400000);
  const pio2_1t = reinterpret<f64>(0x3dd0b4611a626331);
  const pio2_2 = reinterpret<f64>(0x3dd0b4611a600000);
  const pio2_2t = reinterpret<f64>(0x3ba3198a2e037073);
  const pio2_3 = reinterpret<f64>(0x3ba3198a2e000000);
  const pio2_3t = reinterpret<f64>(0x397b839a252049c1);
  const invpio2 = reinterpret<f64>(0x3fe45f306dc9c883);
  const q = nearest(x * invpio2);
  let r = x - q * pio2_1;
  let w = q * pio2_1t;
  const j = ix >> 20;
  let a = r - w;
  let i = j - (((<u32>(reinterpret<u64>(a) >> 32)) >> 20) & 0x7ff);
  if (i > 16) {
    let t = r;
    w = q * pio2_2;
    r = t - w;
    w = q * pio2_2t - (t - r - w);
    a = r - w;
    i = j - (((<u32>(reinterpret<u64>(a) >> 32)) >> 20) & 0x7ff);
    if (i > 49) {
      t = r;
      w = q * pio2_3;
      r = t - w;
      w = q * pio2_3t - (t - r - w);
      a = r - w;
    }
  }
  y0 = a;
  y1 = r - a - w;
  return <i32>q;
}

/** musl __sin. */
function sinKern(x: f64, y: f64, iy: i32): f64 {
  const S1 = reinterpret<f64>(0xbfc5555555555549);
  const S2 = reinterpret<f64>(0x3f8111111110f8a6);
  const S3 = reinterpret<f64>(0xbf2a01a019c161d5);
  const S4 = reinterpret<f64>(0x3ec71de357b1fe7d);
  const S5 = reinterpret<f64>(0xbe5ae5e68a2b9ceb);
  const S6 = reinterpret<f64>(0x3de5d93a5acfd57c);
  const z = x * x;
  const w = z * z;
  const r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
  const v = z * x;
  if (!iy) return x + v * (S1 + z * r);
  return x - (z * (0.5 * y - v * r) - y - v * S1);
}

/** musl __cos. */
function cosKern(x: f64, y: f64): f64 {
  const C1 = reinterpret<f64>(0x3fa555555555554c);
  const C2 = reinterpret<f64>(0xbf56c16c16c15177);
  const C3 = reinterpret<f64>(0x3efa01a019cb1590);
  const C4 = reinterpret<f64>(0xbe927e4f809c52ad);
  const C5 = reinterpret<f64>(0x3e21ee9ebdb4b1c4);
  const C6 = reinterpret<f64>(0xbda8fae9be8838d4);
  const z = x * x;
  let w = z * z;
  const r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
  const hz = 0.5 * z;
  w = 1.0 - hz;
  return w + (1.0 - w - hz + (z * r - x * y));
}

/** sin(x) (`cos` false) or cos(x) (`cos` true), as NativeMath computes them. */
function sinCos(x: f64, cos: bool): f64 {
  let u = reinterpret<u64>(x);
  let ix = (<u32>(u >> 32)) & 0x7fffffff;
  if (ix <= 0x3fe921fb) {
    // |x| ~< pi/4
    if (cos) return ix < 0x3e46a09e ? 1.0 : cosKern(x, 0);
    return ix < 0x3e500000 ? x : sinKern(x, 0, 0);
  }
  if (ix >= 0x7ff00000) return x - x; // Inf or NaN
  if (ix >= 0x413921fb) {
    x -= 2 * NativeMath.PI * nearest(x / (2 * NativeMath.PI)); // never with our angles (see the top)
    u = reinterpret<u64>(x);
    ix = (<u32>(u >> 32)) & 0x7fffffff;
  }
  const n = reduce(x, ix) + <i32>cos;
  x = n & 1 ? cosKern(y0, y1) : sinKern(y0, y1, 1);
  return n & 2 ? -x : x;
}

export class SmallMath {
  static readonly PI: f64 = 3.141592653589793;
  static sin(x: f64): f64 {
    return sinCos(x, false);
  }
  static cos(x: f64): f64 {
    return sinCos(x, true);
  }
  @inline static abs(x: f64): f64 {
    return NativeMath.abs(x);
  }
  @inline static ceil(x: f64): f64 {
    return NativeMath.ceil(x);
  }
  @inline static floor(x: f64): f64 {
    return NativeMath.floor(x);
  }
  @inline static round(x: f64): f64 {
    return NativeMath.round(x);
  }
  @inline static sqrt(x: f64): f64 {
    return NativeMath.sqrt(x);
  }
  @inline static min(a: f64, b: f64): f64 {
    return NativeMath.min(a, b);
  }
  @inline static max(a: f64, b: f64): f64 {
    return NativeMath.max(a, b);
  }
  @inline static asin(x: f64): f64 {
    return NativeMath.asin(x);
  }
  @inline static atan2(y: f64, x: f64): f64 {
    return NativeMath.atan2(y, x);
  }
  @inline static pow(x: f64, y: f64): f64 {
    return NativeMath.pow(x, y);
  }
  @inline static mod(x: f64, y: f64): f64 {
    return NativeMath.mod(x, y);
  }
}
