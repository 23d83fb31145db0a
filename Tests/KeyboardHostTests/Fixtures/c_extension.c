// A keyboard extension written in C against KeyboardExtensionABI.h alone: the proof that the
// boundary is C and an extension built by another compiler loads. The tests compile it with cc,
// once as a working keyboard and once per way a load can fail (the FIXTURE_* macros).
//
// FIXTURE_CREATE_FAILS, FIXTURE_NOT_CONFIGURED and FIXTURE_CONFIGURATION="…" make it fail later, when
// the host shows it.
//
// The working keyboard has one row: "a", "b", a combining acute accent (U+0301), and delete.
#include <stdlib.h>
#include <string.h>
#include "KeyboardExtensionABI.h"

typedef struct kbx_instance {
    kbx_host_api host;
} instance_t;

static kbx_instance *create_instance(const kbx_extension_descriptor *d, const kbx_host_api *host,
                                     const char *settings, size_t settings_length) {
    (void)d; (void)settings; (void)settings_length;
#ifdef FIXTURE_CREATE_FAILS
    static const char message[] = "no memory for the dictionary";
    host->report_error(host->host, message, strlen(message));
    return NULL;
#endif
    instance_t *instance = calloc(1, sizeof *instance);
    instance->host = *host;
    return instance;
}

static void destroy_instance(kbx_instance *instance) { free(instance); }

#ifdef FIXTURE_CONFIGURATION
__attribute__((unused)) static const char configuration[] = FIXTURE_CONFIGURATION;
#else
__attribute__((unused)) static const char configuration[] =
    "{\"layout\":{\"subKeyboards\":[{\"mode\":\"letters\",\"rows\":[["
    "{\"code\":\"input\",\"label\":\"a\"},"
    "{\"code\":\"input\",\"label\":\"b\"},"
    "{\"code\":\"input\",\"label\":\"\\u00b4\",\"output\":\"\\u0301\"},"
    "{\"code\":\"delete\",\"label\":\"del\"}"
    "]]}]}}";
#endif

static kbx_status create_configuration(kbx_instance *instance, kbx_configuration_sink sink, void *context) {
#ifdef FIXTURE_NOT_CONFIGURED
    static const char message[] = "this C keyboard has no configuration yet";
    instance->host.report_error(instance->host.host, message, strlen(message));
    (void)sink; (void)context;
    return KBX_STATUS_NOT_CONFIGURED;
#else
    (void)instance;
    sink(context, configuration, strlen(configuration));
    return KBX_STATUS_OK;
#endif
}

static void lifecycle(kbx_instance *instance, kbx_lifecycle_event event) { (void)instance; (void)event; }
static void text_input(kbx_instance *instance, kbx_text_event event) { (void)instance; (void)event; }
static void update_snapshot(kbx_instance *instance, const kbx_text_snapshot *snapshot) { (void)instance; (void)snapshot; }

__attribute__((unused)) static kbx_status key_event(kbx_instance *instance, const kbx_key_event *event) {
    static const char *outputs[] = {"a", "b", "\xCC\x81"};
    if (event->sub_keyboard != 0 || event->row != 0 || event->column > 3) return KBX_STATUS_NO_SUCH_KEY;
#ifdef FIXTURE_PUSHES_BAD_LAYOUT
    static const char bad[] = "{\"subKeyboards\":[]}";
    instance->host.set_layout(instance->host.host, bad, strlen(bad));
#endif
    if (event->column == 3) {
        instance->host.delete_backward(instance->host.host);
    } else {
        const char *text = outputs[event->column];
        instance->host.insert_text(instance->host.host, text, strlen(text));
    }
    return KBX_STATUS_OK;
}

static void host_command(kbx_instance *instance, kbx_host_command command, uint64_t request) {
    (void)command;
    static const char answer[] = "{\"error\":\"unsupported\"}";
    instance->host.command_finished(instance->host.host, request, KBX_STATUS_FAILED, answer, strlen(answer));
}

#ifndef FIXTURE_ABI_VERSION
#define FIXTURE_ABI_VERSION KBX_ABI_VERSION
#endif
#ifndef FIXTURE_STRUCT_SIZE
#define FIXTURE_STRUCT_SIZE sizeof(kbx_extension_descriptor)
#endif
#ifndef FIXTURE_IDENTIFIER
#define FIXTURE_IDENTIFIER "dev.kbhost.tests.c-keyboard"
#endif
#ifndef FIXTURE_VERSION
#define FIXTURE_VERSION "0.1.0"
#endif
#ifdef FIXTURE_NULL_CALLBACK
#define KEY_EVENT NULL
#else
#define KEY_EVENT key_event
#endif

__attribute__((unused)) static const kbx_extension_descriptor descriptor = {
    .abi_version = FIXTURE_ABI_VERSION,
    .struct_size = FIXTURE_STRUCT_SIZE,
    .identifier = FIXTURE_IDENTIFIER,
    .name = "C Keyboard",
    .version = FIXTURE_VERSION,
    .create_instance = create_instance,
    .destroy_instance = destroy_instance,
    .create_configuration = create_configuration,
    .lifecycle = lifecycle,
    .text_input = text_input,
    .update_snapshot = update_snapshot,
    .key_event = KEY_EVENT,
    .host_command = host_command,
};

#if defined(FIXTURE_NO_ENTRY)
// Exports something, but not the entry symbol.
const kbx_extension_descriptor *some_other_function(void) { return &descriptor; }
#elif defined(FIXTURE_NULL_ENTRY)
const kbx_extension_descriptor *kbx_extension_entry(void) { return NULL; }
#else
const kbx_extension_descriptor *kbx_extension_entry(void) { return &descriptor; }
#endif
