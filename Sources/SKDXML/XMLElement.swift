/// An element of an XML document read whole: its name and namespace URI, the line it starts on, its
/// attributes (by local name), its text, and its child elements in document order.
///
/// Namespaces are kept as URIs, never as prefixes: producers spell prefixes as they like (`cpix:`, a
/// default namespace, anything), and only the URI says what an element is.
package final class XMLElement {
    package let name: String
    package let namespace: String
    package let line: Int
    package internal(set) var attributes: [String: String] = [:]
    package internal(set) var text = ""
    package internal(set) var elements: [XMLElement] = []

    init(name: String, namespace: String, line: Int) {
        self.name = name
        self.namespace = namespace
        self.line = line
    }

    /// The child elements called `name` (in any namespace: callers check the root's).
    package func children(_ name: String) -> [XMLElement] { elements.filter { $0.name == name } }

    /// The first child element called `name`.
    package func child(_ name: String) -> XMLElement? { elements.first { $0.name == name } }
}
