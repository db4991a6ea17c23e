/*
 * STAND-IN for NVIDIA's libnvds_logger, which is not published: the three functions that
 * includes/nvds_logger.h declares, so that NVIDIA's libnvds_msgbroker and its protocol adaptors
 * link and run (scripts/build-deepstream-consumers.sh). NVIDIA's writes to syslog; this one
 * writes to GStreamer's debug log, category `nvds_logger` (GST_DEBUG=nvds_logger:7 shows it), with
 * syslog's priority mapped onto GStreamer's levels. Test-only: never shipped.
 */
#include <gst/gst.h>
#include <stdarg.h>
#include <syslog.h>

#include "nvds_logger.h"

GST_DEBUG_CATEGORY_STATIC(nvds_logger_debug);

static void ensure_category(void) {
  if (g_once_init_enter(&nvds_logger_debug)) {
    GstDebugCategory *category = NULL;
    GST_DEBUG_CATEGORY_INIT(category, "nvds_logger", 0, "stand-in for NVIDIA's libnvds_logger");
    g_once_init_leave(&nvds_logger_debug, category);
  }
}

static GstDebugLevel level_of(int priority) {
  if (priority <= LOG_ERR) return GST_LEVEL_ERROR;
  if (priority == LOG_WARNING) return GST_LEVEL_WARNING;
  if (priority <= LOG_INFO) return GST_LEVEL_INFO;
  return GST_LEVEL_DEBUG;
}

void nvds_log_open(void) { ensure_category(); }

void nvds_log_close(void) {}

void nvds_log(const char *category, int priority, const char *data, ...) {
  ensure_category();
  GstDebugLevel level = level_of(priority);
  if (level > gst_debug_category_get_threshold(nvds_logger_debug)) return;
  va_list args;
  va_start(args, data);
  gchar *text = g_strdup_vprintf(data, args);
  va_end(args);
  GST_CAT_LEVEL_LOG(nvds_logger_debug, level, NULL, "%s: %s", category ? category : "(no category)", text);
  g_free(text);
}
