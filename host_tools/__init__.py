"""Laptop-side tools: command line, simulator, virtual board, deploy, benchmarks."""
