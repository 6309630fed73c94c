// An emulated Raspberry Pi Pico (npm rp2040js) running a MicroPython UF2, its USB serial port
// on this process's stdin and stdout. host_tools/rp2040_emulator.py puts a pty in front of it,
// so mpremote talks to it as to a board.
//   node pico.cjs BOOTROM UF2
'use strict';
const fs = require('fs');
const { Simulator, USBCDC } = require('rp2040js');

const [bootromPath, uf2Path] = process.argv.slice(2);
const simulator = new Simulator();
const mcu = simulator.rp2040;
mcu.logger = { debug() {}, info() {}, warn() {}, error(message) { process.stderr.write(`${message}\n`); } };

const rom = fs.readFileSync(bootromPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));

// UF2: 512-byte blocks, each carrying up to 256 bytes for a flash address (0x10000000 up).
const FLASH_BASE = 0x10000000;
const uf2 = fs.readFileSync(uf2Path);
for (let at = 0; at + 512 <= uf2.length; at += 512) {
  const block = uf2.subarray(at, at + 512);
  if (block.readUInt32LE(0) !== 0x0a324655 || block.readUInt32LE(4) !== 0x9e5d5157) {
    throw new Error(`${uf2Path}: block ${at / 512} is not a UF2 block`);
  }
  const address = block.readUInt32LE(12);
  const size = block.readUInt32LE(16);
  mcu.flash.set(block.subarray(32, 32 + size), address - FLASH_BASE);
}

// The host's bytes wait here: the CDC FIFO drops what does not fit, so it is fed only as it
// has room, between slices of emulation.
const cdc = new USBCDC(mcu.usbCtrl);
let pending = Buffer.alloc(0);
let connected = false;
cdc.onDeviceConnected = () => { connected = true; };
cdc.onSerialData = (buffer) => { process.stdout.write(Buffer.from(buffer)); };
process.stdin.on('data', (chunk) => { pending = Buffer.concat([pending, chunk]); });
process.stdin.on('end', () => { simulator.stop(); process.exit(0); });
setInterval(() => {
  if (!connected || !pending.length) return;
  const count = Math.min(cdc.txFIFO.size - cdc.txFIFO.itemCount, pending.length);
  for (let k = 0; k < count; k++) cdc.sendSerialByte(pending[k]);
  pending = pending.subarray(count);
}, 1);

mcu.core.PC = FLASH_BASE;
simulator.execute();
