// Expat, the XML parser that reads CPIX documents and XML reports (SKDXML). Linked statically from
// Debian's libexpat1-dev (libexpat.a, Package.swift): no library to load at run time.
#include <expat.h>
