# ChromaWheel: nothing to do at boot. main.py starts the app; keeping boot.py trivial means a
# mistake here can never lock out the REPL.
