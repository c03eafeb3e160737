// What one panel holds: its bus identity and the look the controller pushed to it. Its animations
// live in the engine (./engine/), which composites on top of `background`.
import { Look } from "./engine/color";

export const NO_PORT: u32 = 255;

export class PanelState {
  address: u8 = 0; // 0 until discovery assigns one
  upstream: u32 = NO_PORT; // edge port facing the controller
  on: bool = true;
  color: u32 = 0; // 0xRRGGBB: the last set color or background, shown while no animation shows
  brightness: u32 = 255;
  background: u32 = 0; // the compositor's starting colour
  look: Look = new Look(); // palette and base colours for colour references

  reset(): void {
    this.address = 0;
    this.upstream = NO_PORT;
    this.on = true;
    this.color = 0;
    this.brightness = 255;
    this.background = 0;
    this.look.reset();
  }
}

/** Scales each channel of an RGB colour by level/255 (rounded). */
export function scaleRgb(rgb: u32, level: u32): u32 {
  const r = (((rgb >> 16) & 0xff) * level + 127) / 255;
  const g = (((rgb >> 8) & 0xff) * level + 127) / 255;
  const b = ((rgb & 0xff) * level + 127) / 255;
  return (r << 16) | (g << 8) | b;
}
