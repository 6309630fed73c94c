"""Device drivers (LED ring, encoder, button), each behind a small interface with a simulated
twin."""
