// SmallMath (assembly/util/math.ts, the controller's `Math`) against NativeMath: sin and cos must
// be bit-identical over the angles the runners use and well beyond.
import { SmallMath } from "../util/math";

function same(x: f64): bool {
  return (
    reinterpret<u64>(SmallMath.sin(x)) == reinterpret<u64>(NativeMath.sin(x)) &&
    reinterpret<u64>(SmallMath.cos(x)) == reinterpret<u64>(NativeMath.cos(x))
  );
}

describe("SmallMath sin and cos", () => {
  it("match NativeMath for every runner angle (whole degrees 0-719, as the runners convert them)", () => {
    let bad = 0;
    for (let d = 0; d < 720; d++) if (!same((<f64>d * Math.PI) / 180)) bad++;
    expect<i32>(bad).toBe(0);
  });

  it("match NativeMath over -1e6..1e6 and near multiples of pi/2", () => {
    let bad = 0;
    let seed: u32 = 12345;
    for (let i = 0; i < 20000; i++) {
      seed = seed * 1103515245 + 12345;
      const x = (<f64>seed / 4294967296.0 - 0.5) * 2e6;
      if (!same(x) || !same(x * 1e-6) || !same(<f64>(i - 10000) * (Math.PI / 2))) bad++;
    }
    for (let i = -8; i <= 8; i++) if (!same(reinterpret<f64>(0x3ff921fb54442d18 + i))) bad++;
    expect<i32>(bad).toBe(0);
  });

  it("stay finite and in range beyond 2^20*pi/2", () => {
    const s = SmallMath.sin(1e9);
    expect<bool>(s >= -1 && s <= 1).toBe(true);
    expect<bool>(isNaN(SmallMath.cos(Infinity))).toBe(true);
  });
});
