// A UART of the emulated RP2040 as the chip has it (an ARM PL011, RP2040 datasheet 4.2), for
// serial MIDI on the board's jacks: rp2040js's own model sends a byte the moment it is written
// (no FIFO, no baud rate) and keeps its transmit interrupt raised, which would hold
// MicroPython's interrupt handler for ever. Here, in emulated time:
// - transmit: a 32-byte FIFO, a byte on the wire for 10 bit times of the baud rate the
//   firmware set (320 us at MIDI's 31,250), BUSY meanwhile, the transmit interrupt when the
//   FIFO drains through its trigger level (a transition, as the PL011's: none at enable);
// - receive: a 32-byte FIFO, the receive interrupt at its trigger level (IFLS), the receive
//   timeout interrupt 32 bit times after the last byte while the FIFO holds some (what
//   MicroPython's UART.IRQ_RXIDLE waits for), an overrun when a byte finds it full (the byte
//   is lost and OE set on the last one kept), a framing error for a byte sent at another
//   baud rate;
// - the pins: a byte goes out only while the board's TX GPIO is that UART's TX function, and
//   comes in only while its RX GPIO is that UART's RX function (so the firmware must put the
//   UART on the board file's pins).
// attachUart(mcu, config, onByte) -> { receive(byte, byteNanos), fault }: config is
// {"uart": 0|1, "tx": gpio, "rx": gpio}; onByte(byte, endNanos, byteNanos) is called as each
// byte starts on the TX line, with the time its stop bit will end (local emulated time);
// receive() puts a byte that has just ended on the RX line into the receive FIFO.
'use strict';

const UARTDR = 0x0;
const UARTRSR = 0x4;
const UARTFR = 0x18;
const UARTIBRD = 0x24;
const UARTFBRD = 0x28;
const UARTLCR_H = 0x2c;
const UARTCR = 0x30;
const UARTIFLS = 0x34;
const UARTIMSC = 0x38;
const UARTRIS = 0x3c;
const UARTMIS = 0x40;
const UARTICR = 0x44;
const UARTDMACR = 0x48;
const IDS = { 4064: 0x11, 4068: 0x10, 4072: 0x34, 4076: 0x00, 4080: 0x0d, 4084: 0xf0,
  4088: 0x05, 4092: 0xb1 };
const TXFE = 1 << 7;
const RXFF = 1 << 6;
const TXFF = 1 << 5;
const RXFE = 1 << 4;
const BUSY = 1 << 3;
const FEN = 1 << 4;
const UARTEN = 1 << 0;
const TXE = 1 << 8;
const RXE = 1 << 9;
const RXRIS = 1 << 4;
const TXRIS = 1 << 5;
const RTRIS = 1 << 6;
const FERIS = 1 << 7;
const OERIS = 1 << 10;
const FE = 1 << 8;          // in a received byte's DR word
const OE = 1 << 11;
const DEPTH = 32;
const LEVELS = [4, 8, 16, 24, 28];          // IFLS 0-4: 1/8, 1/4, 1/2, 3/4, 7/8 of 32
const FUNC_UART = 2;
const BITS_A_BYTE = 10;                     // start, 8 data, stop
const TIMEOUT_BITS = 32;
const BAUD_TOLERANCE = 0.03;                // a receiver samples mid-bit: a few % apart is fine

function attachUart(mcu, config, onByte) {
  const uart = mcu.uart[config.uart];
  const clock = mcu.clock;
  const irq = uart.irq;
  let cr = RXE | TXE;
  let lcr = 0;
  let ibrd = 0;
  let fbrd = 0;
  let ifls = 0x12;                          // reset: both trigger levels 1/2
  let imsc = 0;
  let ris = 0;
  let dmacr = 0;
  const tx = [];
  const rx = [];
  let shifting = false;
  const state = { fault: null, overruns: 0, framing: 0 };
  const endOfByte = clock.createAlarm(() => byteSent());
  const timeout = clock.createAlarm(() => {
    if (rx.length) { ris |= RTRIS; update(); }
  });
  let sendingNanos = 0;

  const depth = () => (lcr & FEN ? DEPTH : 1);
  const txLevel = () => (lcr & FEN ? LEVELS[Math.min(ifls & 7, 4)] : 0);
  const rxLevel = () => (lcr & FEN ? LEVELS[Math.min((ifls >> 3) & 7, 4)] : 1);
  const enabled = () => !!(cr & UARTEN);
  function bitNanos() {
    const divider = ibrd + fbrd / 64;
    return divider ? (16 * divider * 1e9) / mcu.clkPeri : 0;
  }
  const onPin = (gpio) => mcu.gpio[gpio].functionSelect === FUNC_UART;

  function update() {
    mcu.setInterrupt(irq, !!(ris & imsc));
  }

  function startNext() {
    if (shifting || !tx.length || !enabled() || !(cr & TXE)) return;
    const before = tx.length;
    const sending = tx.shift();
    shifting = true;
    sendingNanos = bitNanos() * BITS_A_BYTE;
    // The transmit interrupt as the PL011 raises it: the FIFO draining through its level.
    if (before > txLevel() && tx.length <= txLevel()) { ris |= TXRIS; update(); }
    endOfByte.schedule(sendingNanos || 1);
    // told as it starts, with the time its stop bit ends: a cable to another board must know
    // of it a byte time ahead (wire.cjs)
    if (onPin(config.tx)) onByte(sending, clock.nanos + sendingNanos, sendingNanos);
  }

  function byteSent() {
    shifting = false;
    startNext();
  }

  // A byte whose stop bit has just ended on the RX line, sent at `byteNanos` a byte.
  function receive(byte, byteNanos) {
    if (!enabled() || !(cr & RXE) || !onPin(config.rx)) return;
    let word = byte & 0xff;
    const own = bitNanos() * BITS_A_BYTE;
    if (!own || Math.abs(byteNanos / own - 1) > BAUD_TOLERANCE) {
      word = FE | ((byte * 7) & 0xff);      // read at the wrong rate: garbage, marked
      state.framing += 1;
      ris |= FERIS;
    }
    if (rx.length >= depth()) {
      rx[rx.length - 1] |= OE;              // lost: the last byte kept says so
      state.overruns += 1;
      ris |= OERIS;
      update();
      return;
    }
    rx.push(word);
    if (rx.length >= rxLevel()) ris |= RXRIS;
    timeout.schedule((bitNanos() || 32000) * TIMEOUT_BITS);
    update();
  }

  function readDR() {
    const word = rx.length ? rx.shift() : 0;
    if (rx.length < rxLevel()) ris &= ~RXRIS;
    if (!rx.length) ris &= ~RTRIS;
    update();
    return word;
  }

  uart.readUint32 = function readUint32(offset) {
    switch (offset) {
      case UARTDR: return readDR();
      case UARTRSR: return 0;
      case UARTFR: return (tx.length ? 0 : TXFE) | (tx.length >= depth() ? TXFF : 0)
        | (rx.length ? 0 : RXFE) | (rx.length >= depth() ? RXFF : 0)
        | (shifting || tx.length ? BUSY : 0);
      case UARTIBRD: return ibrd;
      case UARTFBRD: return fbrd;
      case UARTLCR_H: return lcr;
      case UARTCR: return cr;
      case UARTIFLS: return ifls;
      case UARTIMSC: return imsc;
      case UARTRIS: return ris;
      case UARTMIS: return ris & imsc;
      case UARTICR: return 0;
      case UARTDMACR: return dmacr;
      default:
        if (offset in IDS) return IDS[offset];
        state.fault = `read 0x${offset.toString(16)}`;
        return 0;
    }
  };
  uart.writeUint32 = function writeUint32(offset, value) {
    switch (offset) {
      case UARTDR:
        if (tx.length < depth()) tx.push(value & 0xff);
        startNext();
        return;
      case UARTRSR: return;
      case UARTIBRD: ibrd = value & 0xffff; return;
      case UARTFBRD: fbrd = value & 0x3f; return;
      case UARTLCR_H:
        if ((lcr & FEN) && !(value & FEN)) { tx.length = 0; rx.length = 0; }
        lcr = value & 0xff;
        return;
      case UARTCR: cr = value & 0xffff; startNext(); return;
      case UARTIFLS: ifls = value & 0x3f; return;
      case UARTIMSC: imsc = value & 0x7ff; update(); return;
      case UARTICR: ris &= ~this.rawWriteValue; update(); return;
      case UARTDMACR: dmacr = value & 7; return;
      default: state.fault = `write 0x${offset.toString(16)}`;
    }
  };
  return { receive, state, bitNanos };
}

module.exports = { attachUart, BITS_A_BYTE };
