// The runners' trigonometry without Math.sin, cos, atan2 and asin (their code cost about 2.8 KB of
// wasm): sine and cosine at the 2-degree resolution of the scene format's `angle` from a
// quarter-wave table (sin(2k°) correctly rounded; cos(θ) = sin(90° − θ)), and WHEEL's atan2 and
// asin from a short series (within 1e-13 degrees of the library's).

// sin(2k°), k = 0..45
const SIN = memory.data<f64>([
  0, 0.03489949670250097, 0.0697564737441253, 0.10452846326765346, 0.13917310096006544, 0.17364817766693033,
  0.20791169081775931, 0.24192189559966773, 0.27563735581699916, 0.3090169943749474, 0.3420201433256687,
  0.374606593415912, 0.40673664307580015, 0.4383711467890774, 0.4694715627858908, 0.49999999999999994,
  0.5299192642332049, 0.5591929034707469, 0.5877852522924731, 0.6156614753256582, 0.6427876096865393,
  0.6691306063588582, 0.6946583704589973, 0.7193398003386511, 0.7431448254773942, 0.766044443118978, 0.788010753606722,
  0.8090169943749475, 0.8290375725550417, 0.8480480961564261, 0.8660254037844386, 0.8829475928589269, 0.898794046299167,
  0.9135454576426009, 0.9271838545667874, 0.9396926207859083, 0.9510565162951535, 0.9612616959383189,
  0.9702957262759965, 0.9781476007338056, 0.984807753012208, 0.9902680687415703, 0.9945218953682733, 0.9975640502598242,
  0.9993908270190958, 1,
]);

/** sin of 2k degrees, any k. */
export function sin2(k: i32): f64 {
  k %= 180;
  if (k < 0) k += 180; // 2k in [0°, 360°)
  const q = k <= 90 ? k : k - 90; // [0°, 180°]
  const i: i32 = q <= 45 ? q : 90 - q;
  const v = load<f64>(SIN + ((<usize>i) << 3));
  return k <= 90 ? v : -v;
}

/** cos of 2k degrees, any k. */
export function cos2(k: i32): f64 {
  return sin2(45 - k);
}

/** atan(z) for |z| ≤ 1: two half-angle steps (|z| ≤ 0.2), then its series to 1e-17. */
function atanSmall(z: f64): f64 {
  z = z / (1 + Math.sqrt(1 + z * z));
  z = z / (1 + Math.sqrt(1 + z * z));
  const z2 = z * z;
  // Horner, alternating, unrolled: the loop's operations in its order (1/(2k+1) folded at compile
  // time), so the same bits, at a quarter of the interpreter's work
  let sum: f64 = 1 / 25.0;
  sum = 1 / 23.0 - z2 * sum;
  sum = 1 / 21.0 - z2 * sum;
  sum = 1 / 19.0 - z2 * sum;
  sum = 1 / 17.0 - z2 * sum;
  sum = 1 / 15.0 - z2 * sum;
  sum = 1 / 13.0 - z2 * sum;
  sum = 1 / 11.0 - z2 * sum;
  sum = 1 / 9.0 - z2 * sum;
  sum = 1 / 7.0 - z2 * sum;
  sum = 1 / 5.0 - z2 * sum;
  sum = 1 / 3.0 - z2 * sum;
  sum = 1 - z2 * sum;
  return 4 * z * sum;
}

/** atan2(y, x) in degrees, (-180, 180]: the angle of (x, y) from +x, counterclockwise (WHEEL). */
export function atan2Deg(y: f64, x: f64): f64 {
  if (x == 0 && y == 0) return 0;
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  let a = ay <= ax ? atanSmall(ay / ax) : Math.PI / 2 - atanSmall(ax / ay); // [0, π/2]
  if (x < 0) a = Math.PI - a;
  return ((y < 0 ? -a : a) * 180) / Math.PI;
}

/** asin(v) in degrees for 0 ≤ v ≤ 1. */
export function asinDeg(v: f64): f64 {
  return atan2Deg(v, Math.sqrt(1 - v * v));
}
