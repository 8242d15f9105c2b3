// The parts of libxml2 read through headers: the XSD validator (SKDReportCheck, linked), the compile-time
// check that the function types skdpack's dlopen table declares (SKDReports' LibXML2Writer) are the
// headers' own, and libxml2's reader, the oracle the XML reader's tests hold Expat to (Tests/LibXML2BindingTests).
#include <libxml/xmlwriter.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
