// The tests' stand-in for Web Serial (headless Chromium's navigator.serial.requestPort() never
// resolves, and Playwright cannot choose a port). Injected before the page's own scripts
// (Playwright's add_init_script), it gives the page one port whose streams are a WebSocket to
// bridge.py beside it, which joins it to a serial device (the emulated Pico's USB serial).
// It behaves as Chromium's SerialPort does where the flasher can tell: open() twice fails,
// close() fails while a stream is locked, a reader sees done when the port closes.
// BRIDGE_URL and SLOW_BOARD are filled in by the test.
(() => {
  const BRIDGE_URL = "__BRIDGE_URL__";
  const record = { requestPort: 0, opens: 0, closes: 0 };
  globalThis.serialStandIn = record;
  globalThis.chromawheelSlowBoard = __SLOW_BOARD__;

  class StandInPort extends EventTarget {
    constructor() {
      super();
      this.readable = null;
      this.writable = null;
      this.socket = null;
    }

    getInfo() {
      return { usbVendorId: 0x2e8a, usbProductId: 0x0005 };     // a Pico running MicroPython
    }

    async open(options) {
      if (this.socket) throw new DOMException("The port is already open.", "InvalidStateError");
      if (!options?.baudRate) throw new TypeError("baudRate is required");
      const socket = new WebSocket(BRIDGE_URL);
      socket.binaryType = "arraybuffer";
      await new Promise((resolve, reject) => {
        socket.onopen = resolve;
        socket.onerror = () => reject(new DOMException("Failed to open serial port.", "NetworkError"));
      });
      this.socket = socket;
      record.opens += 1;
      let controller;
      this.readable = new ReadableStream({
        start(c) { controller = c; },
        cancel() {},
      });
      socket.onmessage = (event) => controller.enqueue(new Uint8Array(event.data));
      socket.onclose = () => { try { controller.close(); } catch (_err) { /* closed */ } };
      this.writable = new WritableStream({
        write(chunk) {
          if (socket.readyState !== WebSocket.OPEN) throw new DOMException("The device has been lost.", "NetworkError");
          socket.send(chunk);
        },
      });
    }

    async close() {
      if (!this.socket) throw new DOMException("The port is already closed.", "InvalidStateError");
      if ((this.readable?.locked) || (this.writable?.locked)) {
        throw new TypeError("Failed to execute 'close' on 'SerialPort': Cannot cancel a locked stream");
      }
      this.socket.close();
      this.socket = null;
      this.readable = null;
      this.writable = null;
      record.closes += 1;
    }
  }

  const port = new StandInPort();
  const serial = new EventTarget();
  serial.requestPort = async () => { record.requestPort += 1; return port; };
  serial.getPorts = async () => [port];
  Object.defineProperty(Navigator.prototype, "serial", { get: () => serial, configurable: true });
})();
