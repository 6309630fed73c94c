// MIDI cables between emulated boards, each board a process of its own: OUT of one board to IN
// of the next (a ring of wheels), bytes at 31,250 baud in emulated time, and the boards' clocks
// kept together so that what each board hears, and when, is the same on every run.
//
// Each board runs in emulated time; a board with a cable into its IN may run only as far as
// its upstream neighbour has promised to be silent: a byte that starts on the wire at time t
// ends at t + one byte time (320 us at 31,250 baud), so a board that has reached time t and
// reported every byte it started before t lets its downstream neighbour run to t + 320 us
// (conservative lockstep: the horizon). Times on the cable are the table's (global: a board
// powered up again later starts its own clock at 0, at the table's time `offset`).
//
// On the socket, one line a message:
//   B <end ns> <byte> <byte ns>   a byte on the wire, whole at <end ns>, sent at <byte ns> a byte
//   T <ns>                        the sender has reached <ns>: every byte it started before
//                                 then is told
//   P <ns>                        the sender is off (powered down) until <ns>: nothing from it
//                                 before then
// attachWire(config, clock, handlers): config {"in_fd", "out_fd", "offset", "byte_ns"};
// handlers.receive(byte, byteNanos) when a byte has ended on this board's IN, handlers.resume()
// when the horizon moved past where the emulation waits.
'use strict';
const net = require('node:net');

function attachWire(config, clock, handlers) {
  const offset = config.offset || 0;
  const lookahead = config.byte_ns;
  const out = config.out_fd !== undefined && config.out_fd !== null
    ? new net.Socket({ fd: config.out_fd, readable: false, writable: true }) : null;
  const hasIn = config.in_fd !== undefined && config.in_fd !== null;
  // No cable in: nothing constrains this board. One in: not past what the neighbour promised.
  const wire = { horizon: hasIn ? 0 : Infinity, plugged: true, late: 0, blocked: false };
  const arriving = [];                        // [local end ns, byte, byte ns], in order
  const alarm = clock.createAlarm(() => deliver());
  let reported = -1;

  function deliver() {
    while (arriving.length && arriving[0][0] <= clock.nanos) {
      const [, byte, byteNanos] = arriving.shift();
      handlers.receive(byte, byteNanos);
    }
    if (arriving.length) alarm.schedule(arriving[0][0] - clock.nanos);
  }

  function heard(words) {
    const [kind, at] = [words[0], Number(words[1])];
    const local = at - offset;
    if (kind === 'B') {
      if (local < 0) return;                  // it ended while this board was off
      let when = local;
      if (when < clock.nanos) { wire.late += 1; when = clock.nanos; }   // never, in lockstep
      arriving.push([when, Number(words[2]), Number(words[3])]);
      if (arriving.length === 1) alarm.schedule(when - clock.nanos);
    } else if (kind === 'T' || kind === 'P') {
      const horizon = local + lookahead;
      if (horizon > wire.horizon) {
        wire.horizon = horizon;
        if (wire.blocked) {
          wire.blocked = false;
          handlers.resume();
        }
      }
    }
  }

  if (hasIn) {
    let partial = '';
    new net.Socket({ fd: config.in_fd, readable: true, writable: false }).on('data', (chunk) => {
      partial += chunk.toString();
      const lines = partial.split('\n');
      partial = lines.pop();
      for (const line of lines) if (line) heard(line.split(' '));
    });
  }

  // A byte this board's UART has just put whole on its OUT (local end time).
  wire.sent = (byte, endNanos, byteNanos) => {
    if (out && wire.plugged) out.write(`B ${Math.round(endNanos + offset)} ${byte} ${Math.round(byteNanos)}\n`);
  };
  // The board has reached local time `nanos`: its neighbour may run on.
  wire.report = (nanos) => {
    const at = Math.floor(nanos);
    if (out && at > reported) {
      reported = at;
      out.write(`T ${at + offset}\n`);
    }
  };
  // The board goes off until the table's time `until`.
  wire.off = (until, done) => {
    if (out) out.write(`P ${Math.round(until)}\n`, done);
    else done();
  };
  wire.toTable = (nanos) => Math.round(nanos + offset);
  return wire;
}

module.exports = { attachWire };
