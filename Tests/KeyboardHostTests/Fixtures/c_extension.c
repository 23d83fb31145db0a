// A keyboard extension written in C against KeyboardExtensionABI.h alone: the proof that the
// boundary is C and an extension built by another compiler loads. The tests compile it with cc,
// once as a working keyboard and once per way a load can fail (the FIXTURE_* macros).
//
// FIXTURE_CREATE_FAILS, FIXTURE_NOT_CONFIGURED and FIXTURE_CONFIGURATION="…" make it fail later, when
// the host shows it.
//
// The working keyboard has one row: "a", "b", a combining acute accent (U+0301), and delete.
//
// FIXTURE_CONTRACT makes it test the ABI's edges (sections 3, 8 and 9): "a" inserts from another
// thread; "b" also sets timer 7 to insert "!" 500 ms later; a read command walks the caret to the end
// one snapshot at a time, answering at the end; destroy_instance calls the host from another thread
// and schedules a timer. What it saw is counted in fixture_counters, for the tests to read with dlsym.
// FIXTURE_SILENT makes it never answer a command.
//
// Faults, each set off by tapping "b" (the first snapshot after it, for those in update_snapshot), for
// the isolation tests: FIXTURE_FAULT_SEGV (a null dereference in key_event), FIXTURE_FAULT_ABORT (abort()
// in update_snapshot), FIXTURE_FAULT_EXIT (exit(3) in key_event), FIXTURE_FAULT_HANG (an endless loop in
// key_event), FIXTURE_FAULT_HANG_LATER (an endless loop in update_snapshot, a call nobody waits on),
// FIXTURE_FAULT_EVENTS, _ERRORS, _INSERTS (a million calls in key_event), FIXTURE_FAULT_HUGE_INSERT
// (insert_text with a length of 2^40), FIXTURE_FAULT_GARBAGE (bytes of its own on the wire to the host,
// descriptor 4), FIXTURE_FAULT_MEMORY (200 MB allocated and kept). FIXTURE_NAME overrides the name.
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "KeyboardExtensionABI.h"

typedef struct kbx_instance {
    kbx_host_api host;
    uint64_t walking;   /* the request of the walk under way, or 0 */
    int64_t steps;      /* snapshots the walk has taken */
} instance_t;

/* What the contract fixture saw: read by the tests. */
struct fixture_counters {
    int timers_fired;
    int timers_fired_after_destroy;
    int walk_steps;
    int cancelled_commands;
    int destroyed;
};
struct fixture_counters fixture_counters;

/* The last snapshot's platform fields (ABI section 10), when its struct_size has them. */
struct fixture_platform {
    int64_t selection_location;
    int64_t selection_length;
    uint32_t platform;
    uint32_t platform_traits;
};
struct fixture_platform fixture_platform;

#ifdef FIXTURE_CONTRACT
static instance_t *live_instance;  /* for timer callbacks, which get only the timer's number */

typedef struct { kbx_host_api host; const char *text; } thread_call;

static void *insert_from_thread(void *argument) {
    thread_call *call = argument;
    call->host.insert_text(call->host.host, call->text, strlen(call->text));
    return NULL;
}

/* Calls insert_text from another thread and waits for that thread: the call is made while the main
   thread is inside a callback, so the host must move it to its main queue. */
static void insert_on_another_thread(const kbx_host_api *host, const char *text) {
    thread_call call = {*host, text};
    pthread_t thread;
    pthread_create(&thread, NULL, insert_from_thread, &call);
    pthread_join(thread, NULL);
}

static void timer_fired(uint64_t timer) {
    fixture_counters.timers_fired++;
    if (timer == 99 || live_instance == NULL) {
        fixture_counters.timers_fired_after_destroy++;
        return;
    }
    live_instance->host.insert_text(live_instance->host.host, "!", 1);
}
#endif

static int fault_armed;  /* "b" was tapped: the next snapshot sets off a snapshot fault */

/* The fault the fixture was built with, set off in key_event (in_snapshot 0) or update_snapshot (1). */
static void fault(kbx_instance *instance, int in_snapshot) {
    (void)instance;
#if defined(FIXTURE_FAULT_SEGV)
    if (!in_snapshot) { volatile int *nowhere = NULL; *nowhere = 1; }
#elif defined(FIXTURE_FAULT_ABORT)
    if (in_snapshot) abort();
#elif defined(FIXTURE_FAULT_EXIT)
    if (!in_snapshot) exit(3);
#elif defined(FIXTURE_FAULT_HANG)
    if (!in_snapshot) for (volatile int forever = 1; forever;) {}
#elif defined(FIXTURE_FAULT_HANG_LATER)
    if (in_snapshot) for (volatile int forever = 1; forever;) {}
#elif defined(FIXTURE_FAULT_EVENTS)
    static const char event[] = "{\"name\":\"flood\"}";
    if (!in_snapshot) for (int i = 0; i < 1000000; i++) instance->host.report_event(instance->host.host, event, strlen(event));
#elif defined(FIXTURE_FAULT_ERRORS)
    static const char error[] = "again";
    if (!in_snapshot) for (int i = 0; i < 1000000; i++) instance->host.report_error(instance->host.host, error, strlen(error));
#elif defined(FIXTURE_FAULT_INSERTS)
    if (!in_snapshot) for (int i = 0; i < 1000000; i++) instance->host.insert_text(instance->host.host, "z", 1);
#elif defined(FIXTURE_FAULT_HUGE_INSERT)
    if (!in_snapshot) instance->host.insert_text(instance->host.host, "tiny", (size_t)1 << 40);
#elif defined(FIXTURE_FAULT_GARBAGE)
    static const unsigned char garbage[] = {5, 0, 0, 0, 0, 0, 0, 0, 0xEE, 1, 2, 3, 4};
    if (!in_snapshot) { ssize_t written = write(4, garbage, sizeof garbage); (void)written; }
#elif defined(FIXTURE_FAULT_MEMORY)
    if (!in_snapshot) {
        char *kept = malloc(200u << 20);
        if (kept) memset(kept, 1, 200u << 20);
    }
#else
    (void)in_snapshot;
#endif
}

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
#ifdef FIXTURE_CONTRACT
    live_instance = instance;
#endif
    return instance;
}

static void destroy_instance(kbx_instance *instance) {
#ifdef FIXTURE_CONTRACT
    /* Section 9: both are dropped. */
    insert_on_another_thread(&instance->host, "late");
    instance->host.schedule_timer(instance->host.host, 99, 1, timer_fired);
    live_instance = NULL;
    fixture_counters.destroyed++;
#endif
    free(instance);
}

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
static void update_snapshot(kbx_instance *instance, const kbx_text_snapshot *snapshot) {
    if (fault_armed) fault(instance, 1);
    fixture_platform.selection_location = snapshot->selection_location;
    fixture_platform.selection_length = snapshot->selection_length;
    if (KBX_HAS_FIELD(kbx_text_snapshot, snapshot->struct_size, platform_traits)) {
        fixture_platform.platform = snapshot->platform;
        fixture_platform.platform_traits = snapshot->platform_traits;
    }
#ifdef FIXTURE_CONTRACT
    /* The walk: one step per snapshot, until the window after the caret is empty. */
    if (instance->walking == 0) return;
    fixture_counters.walk_steps++;
    instance->steps++;
    if (snapshot->context_after.length == 0) {
        static const char answer[] = "{\"roundTrips\":1}";
        uint64_t request = instance->walking;
        instance->walking = 0;
        instance->host.command_finished(instance->host.host, request, KBX_STATUS_OK, answer, strlen(answer));
        return;
    }
    instance->host.adjust_text_position(instance->host.host, 1);
#else
    (void)instance; (void)snapshot;
#endif
}

__attribute__((unused)) static kbx_status key_event(kbx_instance *instance, const kbx_key_event *event) {
    static const char *outputs[] = {"a", "b", "\xCC\x81"};
    if (event->sub_keyboard != 0 || event->row != 0 || event->column > 3) return KBX_STATUS_NO_SUCH_KEY;
    if (event->column == 1) {
        fault_armed = 1;
        fault(instance, 0);
    }
#ifdef FIXTURE_PUSHES_BAD_LAYOUT
    static const char bad[] = "{\"subKeyboards\":[]}";
    instance->host.set_layout(instance->host.host, bad, strlen(bad));
#endif
#ifdef FIXTURE_CONTRACT
    if (event->column == 0) {
        insert_on_another_thread(&instance->host, "t");
        return KBX_STATUS_OK;
    }
    if (event->column == 1) instance->host.schedule_timer(instance->host.host, 7, 500000000u, timer_fired);
#endif
#ifdef FIXTURE_EXTRAS
    /* "b" also uses section 7: selects from 1, then deletes the first Character. */
    if (event->column == 1) {
        instance->host.set_selected_range(instance->host.host, 1, 0, 0);
        instance->host.delete_range(instance->host.host, 0, 1, 0);
        return KBX_STATUS_OK;
    }
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
#if defined(FIXTURE_SILENT)
    (void)instance; (void)command; (void)request;  /* never answers */
    return;
#elif defined(FIXTURE_CONTRACT)
    if (command == KBX_COMMAND_READ_FULL_DOCUMENT) {
        instance->walking = request;
        instance->host.adjust_text_position(instance->host.host, 1);
        return;
    }
#endif
    (void)command;
    static const char answer[] = "{\"error\":\"unsupported\"}";
    instance->host.command_finished(instance->host.host, request, KBX_STATUS_FAILED, answer, strlen(answer));
}

static void cancel_command(kbx_instance *instance, uint64_t request) {
    if (instance->walking == request) instance->walking = 0;
    fixture_counters.cancelled_commands++;
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
#ifndef FIXTURE_NAME
#define FIXTURE_NAME "C Keyboard"
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
    .name = FIXTURE_NAME,
    .version = FIXTURE_VERSION,
    .create_instance = create_instance,
    .destroy_instance = destroy_instance,
    .create_configuration = create_configuration,
    .lifecycle = lifecycle,
    .text_input = text_input,
    .update_snapshot = update_snapshot,
    .key_event = KEY_EVENT,
    .host_command = host_command,
    .cancel_command = cancel_command,
};

#if defined(FIXTURE_NO_ENTRY)
// Exports something, but not the entry symbol.
const kbx_extension_descriptor *some_other_function(void) { return &descriptor; }
#elif defined(FIXTURE_NULL_ENTRY)
const kbx_extension_descriptor *kbx_extension_entry(void) { return NULL; }
#else
const kbx_extension_descriptor *kbx_extension_entry(void) { return &descriptor; }
#endif
