// The page's sound through Web Audio: a meld as a chord or as an arpeggio, in a soft
// electric-piano-like tone (two detuned triangle and sine partials through a gentle low-pass,
// each note with its own attack and decay), and the wheel's buzzer as quiet sine blips. The
// AudioContext is made at the first tap that asks for sound, as browsers require.

const ATTACK = 0.012;          // s
const DECAY = 1.6;             // s, to near silence
const ARPEGGIO_GAP = 0.22;     // s between the notes of an arpeggio
const LEVEL = 0.22;            // each note's peak, before the compressor

export function midiToHz(note) {
  return 440 * 2 ** ((note - 69) / 12);
}

export class Sound {
  constructor() {
    this.context = null;
    this.played = 0;           // notes started (the tests read it)
  }

  // The context and its output chain: notes -> low-pass -> compressor -> speakers.
  ensure() {
    if (!this.context) {
      const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
      if (!Context) return null;
      this.context = new Context();
      this.filter = this.context.createBiquadFilter();
      this.filter.type = "lowpass";
      this.filter.frequency.value = 3200;
      this.filter.Q.value = 0.4;
      this.output = this.context.createDynamicsCompressor();
      this.filter.connect(this.output).connect(this.context.destination);
    }
    if (this.context.state === "suspended") this.context.resume();
    return this.context;
  }

  note(midi, at, level = LEVEL) {
    const context = this.context;
    const hz = midiToHz(midi);
    const envelope = context.createGain();
    envelope.gain.setValueAtTime(0, at);
    envelope.gain.linearRampToValueAtTime(level, at + ATTACK);
    envelope.gain.exponentialRampToValueAtTime(level * 0.35, at + 0.25);
    envelope.gain.exponentialRampToValueAtTime(0.0005, at + DECAY);
    envelope.connect(this.filter);
    for (const [type, ratio, gain] of [["triangle", 1, 0.8], ["sine", 2.002, 0.25],
                                         ["sine", 0.998, 0.35]]) {
      const osc = context.createOscillator();
      osc.type = type;
      osc.frequency.value = hz * ratio;
      const partial = context.createGain();
      partial.gain.value = gain;
      osc.connect(partial).connect(envelope);
      osc.start(at);
      osc.stop(at + DECAY + 0.05);
    }
    this.played += 1;
  }

  // MIDI note numbers, low to high; a chord spreads its attacks by a few milliseconds.
  chord(notes) {
    if (!notes.length || !this.ensure()) return;
    const start = this.context.currentTime + 0.03;
    const level = LEVEL / Math.sqrt(notes.length);
    notes.forEach((note, i) => {
      this.note(note, start + i * 0.008, level);
    });
  }

  arpeggio(notes) {
    if (!notes.length || !this.ensure()) return;
    const start = this.context.currentTime + 0.03;
    notes.forEach((note, i) => {
      this.note(note, start + i * ARPEGGIO_GAP);
    });
  }

  // The wheel's buzzer (a tone event): a short quiet sine at its pitch.
  blip(freq, duty) {
    if (!freq || !this.context || this.context.state !== "running") return;
    const at = this.context.currentTime;
    const gain = this.context.createGain();
    gain.gain.setValueAtTime(0.08 * Math.min(duty / 32768, 1), at);
    gain.gain.exponentialRampToValueAtTime(0.0005, at + 0.12);
    const osc = this.context.createOscillator();
    osc.frequency.value = freq;
    osc.connect(gain).connect(this.filter);
    osc.start(at);
    osc.stop(at + 0.13);
  }
}
