// The parts of libxml2 skdpack uses: the streaming writer for XML reports and the XSD validator.
#include <libxml/xmlwriter.h>
#include <libxml/xmlschemas.h>
