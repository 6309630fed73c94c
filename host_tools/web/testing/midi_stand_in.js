// The tests' stand-in for Web MIDI (headless Chromium here refuses it: "Platform dependent
// initialization failed", and the machine has no ALSA sequencer). Injected before the page's
// own scripts (Playwright's add_init_script), it gives the page one keyboard (an input) and
// one synth (an output), as Chromium's MIDIAccess shapes them: Maps of ports by id, an
// input's onmidimessage called with {data: Uint8Array}, an output's send(bytes).
// globalThis.midiStandIn.play(bytes) plays on the keyboard; .sent holds what reached the synth.
(() => {
  const record = { requests: 0, sent: [] };
  globalThis.midiStandIn = record;

  class Input extends EventTarget {
    constructor() {
      super();
      Object.assign(this, { id: "keyboard-1", name: "Stand-in Keyboard", type: "input",
                            state: "connected", connection: "open", onmidimessage: null });
    }
  }

  class Output extends EventTarget {
    constructor() {
      super();
      Object.assign(this, { id: "synth-1", name: "Stand-in Synth", type: "output",
                            state: "connected", connection: "open" });
    }

    send(data) {
      for (const byte of data) {
        if (!Number.isInteger(byte) || byte < 0 || byte > 255) throw new TypeError("not a byte");
      }
      record.sent.push(Array.from(data));
    }
  }

  const input = new Input();
  const output = new Output();
  record.play = (bytes) => {
    if (input.onmidimessage) input.onmidimessage({ data: new Uint8Array(bytes), target: input });
    return Boolean(input.onmidimessage);
  };
  Object.defineProperty(Navigator.prototype, "requestMIDIAccess", {
    configurable: true,
    value: async () => {
      record.requests += 1;
      return { inputs: new Map([[input.id, input]]), outputs: new Map([[output.id, output]]),
               sysexEnabled: false, onstatechange: null };
    },
  });
})();
