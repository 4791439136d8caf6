"""The tournament engine: the draw, pairing, seating, advancement, tie-breaks and league
arithmetic, written without Django (an import-linter contract keeps it so), as rules/ is
for the games. The apps above hand it plain values and store what it returns."""
