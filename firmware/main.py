# ChromaWheel: start the app (or safe mode). Hold the button at power-up for safe mode.
from firmware.start import main

main()
