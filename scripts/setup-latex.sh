#!/usr/bin/env bash
# Optional: installs the Debian TeX Live packages that compile a report's paper.tex
# (`pdflatex paper.tex` in the report folder), only when one is missing:
#   texlive-latex-base        -> pdflatex, article, graphicx, amssymb, textcomp
#   texlive-latex-recommended -> booktabs
#   texlive-pictures          -> pgf/TikZ and pgfplots (the figures' .tex sources)
#   texlive-fonts-recommended, lmodern -> outline fonts for the text and the symbols
#                                (Latin Modern: \textdagger without METAFONT bitmaps)
# Not part of setup-deps.sh: the build and the tests do not need it (the tests that compile
# paper.tex say they were skipped without it).
set -euo pipefail
exec bash "$(dirname "$0")/install-missing.sh" texlive-latex-base texlive-latex-recommended \
  texlive-pictures texlive-fonts-recommended lmodern
