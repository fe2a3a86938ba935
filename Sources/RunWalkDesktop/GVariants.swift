import CGio

/// Building and reading GVariants with GLib's typed functions (its varargs ones don't import).
/// New values are floating references: a container or a GDBus call takes them over.
enum GV {
    static func string(_ text: String) -> OpaquePointer { g_variant_new_string(text) }
    static func objectPath(_ path: String) -> OpaquePointer { g_variant_new_object_path(path) }
    static func bool(_ value: Bool) -> OpaquePointer { g_variant_new_boolean(value ? 1 : 0) }
    static func int64(_ value: Int64) -> OpaquePointer { g_variant_new_int64(gint64(value)) }
    static func int32(_ value: Int32) -> OpaquePointer { g_variant_new_int32(value) }
    static func uint32(_ value: UInt32) -> OpaquePointer { g_variant_new_uint32(value) }
    static func double(_ value: Double) -> OpaquePointer { g_variant_new_double(value) }

    /// An `as` array.
    static func strings(_ texts: [String]) -> OpaquePointer {
        let children = texts.map { string($0) }
        return array(of: "s", children)
    }

    /// An array of `element` type (given, so an empty array has a type too).
    static func array(of element: String, _ children: [OpaquePointer]) -> OpaquePointer {
        children.withUnsafeBufferPointer { buffer in
            let type = g_variant_type_new(element)
            defer { g_variant_type_free(type) }
            return g_variant_new_array(type, buffer.count == 0 ? nil : UnsafePointer(buffer.baseAddress.map {
                UnsafeRawPointer($0).assumingMemoryBound(to: OpaquePointer?.self) }), gsize(buffer.count))
        }
    }

    /// An `a{sv}` dictionary in the given key order.
    static func dictionary(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        array(of: "{sv}", entries.map { g_variant_new_dict_entry(string($0.0), g_variant_new_variant($0.1)) })
    }

    /// A tuple of `children`.
    static func tuple(_ children: [OpaquePointer]) -> OpaquePointer {
        var items: [OpaquePointer?] = children
        return items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// The `index`th child of a tuple or container (a new full reference: `unref` it).
    static func child(_ value: OpaquePointer, _ index: Int) -> OpaquePointer? {
        guard index < Int(g_variant_n_children(value)) else { return nil }
        return g_variant_get_child_value(value, gsize(index))
    }

    /// The string inside an `s`, `o` or `v`-wrapped string value.
    static func text(_ value: OpaquePointer) -> String? {
        var value = value
        if cgio_is_of_type(value, "v") != 0 {
            value = g_variant_get_variant(value)
            defer { g_variant_unref(value) }
            return text(value)
        }
        guard cgio_is_of_type(value, "s") != 0
                || cgio_is_of_type(value, "o") != 0,
              let pointer = g_variant_get_string(value, nil) else { return nil }
        return String(cString: pointer)
    }

    /// The first string of an `as` value (as xesam:artist holds), or the string of an `s`.
    static func firstText(_ value: OpaquePointer) -> String? {
        if let text = text(value) { return text }
        var value = value
        if cgio_is_of_type(value, "v") != 0 {
            value = g_variant_get_variant(value)
            defer { g_variant_unref(value) }
            return firstText(value)
        }
        guard cgio_is_of_type(value, "as") != 0, let first = child(value, 0) else { return nil }
        defer { g_variant_unref(first) }
        return text(first)
    }

    /// Looks `key` up in an `a{sv}` value; the result is a new reference (`unref` it).
    static func lookup(_ dictionary: OpaquePointer, _ key: String) -> OpaquePointer? {
        g_variant_lookup_value(dictionary, key, nil)
    }

    /// The message of a GError, and frees it.
    static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
