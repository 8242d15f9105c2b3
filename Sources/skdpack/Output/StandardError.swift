import Glibc

/// Unbuffered writes of whole messages to standard error, for the few messages outside a printer.
enum FileHandleStandardError {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
