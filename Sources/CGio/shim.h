// GLib's GIO (GDBus) for the hands-free adapters; imported only by RunWalkDesktop.
// Helpers here wrap what Swift cannot call: macros, casts and a vtable that must outlive the call.
#include <gio/gio.h>
#include <gio/gunixfdlist.h>

/// Registers an object whose method calls and property reads go to two C callbacks.
/// The vtable is allocated here (older GLibs keep a pointer to it): the caller frees
/// `*vtable_out` with g_free after unregistering. `user_data` is not freed by GDBus.
static inline guint cgio_register_object(GDBusConnection *connection, const char *path,
                                         GDBusInterfaceInfo *info,
                                         GDBusInterfaceMethodCallFunc method_call,
                                         GDBusInterfaceGetPropertyFunc get_property,
                                         gpointer user_data, gpointer *vtable_out, GError **error) {
    GDBusInterfaceVTable *vtable = g_new0(GDBusInterfaceVTable, 1);
    vtable->method_call = method_call;
    vtable->get_property = get_property;
    guint id = g_dbus_connection_register_object(connection, path, info, vtable, user_data, NULL, error);
    if (id == 0) { g_free(vtable); vtable = NULL; }
    *vtable_out = vtable;
    return id;
}

/// Whether `value` has the type `type` ("s", "as", "v"): G_VARIANT_TYPE is a cast macro, and
/// the text Swift passes lives only for the call, so the test happens here.
static inline gboolean cgio_is_of_type(GVariant *value, const char *type) {
    return g_variant_is_of_type(value, G_VARIANT_TYPE(type));
}
