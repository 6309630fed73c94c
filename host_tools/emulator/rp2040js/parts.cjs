// The optional parts on the emulated board's pins, as the board file wires them:
//
// OLED: an SSD1306 on the RP2040's I2C block. It acknowledges its address (writes only, as
// the SSD1306 in I2C mode has nothing to read) and every byte; each finished write goes out
// as
//   I <ns> <hex bytes>            (the control byte first, as on the wire)
// for the host to feed its SSD1306 model. A breakout carries pull-ups, so SDA and SCL read
// high while nobody drives them (CircuitPython refuses a bus without them). Sent "unplug",
// the OLED stops acknowledging, as a loose wire does.
//
// Piezo: the buzzer pin's PWM edges, timed on the emulator's clock. A rising edge a steady
// period after the last one is a tone; a change of period or duty, or the pin quiet for more
// than QUIET_PERIODS periods (duty 0 holds it low), ends it:
//   T <ns> <freq Hz> <duty per 65536>    a tone starts (frequency and duty from the edges)
//   T <ns> 0 0                           silence
'use strict';
const { I2CMode } = require('rp2040js');

const QUIET_PERIODS = 3;

function oled(mcu, config, emit) {
  const i2c = mcu.i2c[config.bus];
  let bytes = null;                            // the write in progress, if it is to us
  let answering = true;
  for (const pin of [config.sda, config.scl]) mcu.gpio[pin].setInputValue(true);

  i2c.onConnect = (address, mode) => {
    const ours = answering && address === config.address && mode === I2CMode.Write;
    bytes = ours ? [] : null;
    i2c.completeConnect(ours);
  };
  i2c.onWriteByte = (value) => {
    if (bytes !== null && answering) bytes.push(value);
    i2c.completeWrite(bytes !== null && answering);
  };
  i2c.onStop = () => {
    if (bytes !== null && bytes.length) {
      emit(`I ${Math.round(mcu.clock.nanos)} ${Buffer.from(bytes).toString('hex')}`);
    }
    bytes = null;
    i2c.completeStop();
  };
  return { unplug() { answering = false; } };
}

function piezo(mcu, pin, emit) {
  const clock = mcu.clock;
  let lastRise = null;
  let lastFall = null;
  let period = 0;                              // ns between the last two rising edges
  let high = 0;                                // ns high in the last period
  let tone = null;                             // [freq, duty] sounding, or null
  const quiet = clock.createAlarm(() => stop(lastRise + period));

  function stop(at) {
    if (tone) emit(`T ${Math.round(at)} 0 0`);
    tone = null;
    lastRise = null;
    period = 0;
  }

  mcu.gpio[pin].addListener((state) => {
    const now = clock.nanos;
    if (state === 1) {                         // rising
      if (lastRise !== null) {
        const p = now - lastRise;
        if (lastFall !== null && lastFall > lastRise) high = lastFall - lastRise;
        if (period && Math.abs(p - period) <= period / 100) {
          const freq = Math.round(1e9 / p);
          const duty = Math.round(65536 * high / p);
          if (!tone || tone[0] !== freq || Math.abs(tone[1] - duty) > 656) {
            if (tone) emit(`T ${Math.round(lastRise - period)} 0 0`);
            tone = [freq, duty];
            emit(`T ${Math.round(lastRise - period)} ${freq} ${duty}`);
          }
        }
        period = p;
      }
      lastRise = now;
      quiet.cancel();
      if (period) quiet.schedule(period * QUIET_PERIODS);
    } else if (state === 0) {
      lastFall = now;
    }
  });
}

module.exports = { oled, piezo };
