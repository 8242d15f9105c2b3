// The parts of libxml2 read through headers: the XSD validator (SKDReportCheck, linked), and the compile-time
// check that the function types skdpack's dlopen tables declare (SKDReports' LibXML2Writer and
// LibXML2Reader) are the headers' own (Tests/LibXML2BindingTests).
#include <libxml/xmlwriter.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
