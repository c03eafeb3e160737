// The controller's serial port on a computer (--serial PATH): a tty or a pty, set to 57600 baud 8N1,
// raw. Bytes in go to the core (core_serial_receive, the firmware frame), the core's answers
// (host_serial_write) go out. Nothing here interprets the bytes.
import fs from "node:fs";
import tty from "node:tty";
import { spawnSync } from "node:child_process";

export class SerialPort {
  private readonly fd: number;
  private readonly input: NodeJS.ReadableStream & { destroy(): void };

  constructor(
    readonly path: string,
    receive: (bytes: Uint8Array) => void,
    log: (level: string, message: string) => void,
  ) {
    this.fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_NOCTTY);
    if (tty.isatty(this.fd)) {
      // 57600 8N1 on a real line (a pty ignores the speed), no echo, no line editing
      const r = spawnSync("stty", ["-F", path, "57600", "cs8", "-cstopb", "-parenb", "raw", "-echo"]);
      if (r.status !== 0) log("warn", `serial: stty ${path} failed; using it as it is`);
      const stream = new tty.ReadStream(this.fd);
      stream.setRawMode(true);
      this.input = stream;
    } else {
      this.input = fs.createReadStream("", { fd: this.fd, autoClose: false });
    }
    this.input.on("data", (d: Buffer) => receive(new Uint8Array(d.buffer, d.byteOffset, d.length)));
    this.input.on("error", (e: Error) => log("warn", `serial: ${path}: ${e.message}`));
  }

  write(bytes: Uint8Array): void {
    try {
      fs.writeSync(this.fd, bytes);
    } catch (e) {
      // a closed far end, or a full line: the answer is lost, as on a wire
      void e;
    }
  }

  close(): void {
    this.input.destroy();
  }
}
