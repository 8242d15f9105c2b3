// Everything is in include/CLineScan.h, inline; SwiftPM builds a C target from at least one source file.
#include "CLineScan.h"
