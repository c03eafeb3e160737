/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/freertos/FreeRTOS-Kernel/portable/riscv/include/freertos/portmacro.h (riscv; xtensa is the same for these)
 *   components/freertos/FreeRTOS-Kernel/include/freertos/projdefs.h
 *   components/freertos/config/include/freertos/FreeRTOSConfig.h
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_FREERTOS_FREERTOS_H
#define TESSERA_API_FREERTOS_FREERTOS_H

#include <stdint.h>
#include <stddef.h>
#include "sdkconfig.h"

#define portBASE_TYPE int
#define portSTACK_TYPE uint8_t

typedef portSTACK_TYPE              StackType_t;
typedef portBASE_TYPE               BaseType_t;
typedef unsigned portBASE_TYPE      UBaseType_t;

typedef uint32_t TickType_t;
#define portMAX_DELAY (TickType_t)  0xffffffffUL

#define configTICK_RATE_HZ                           CONFIG_FREERTOS_HZ

#define configSTACK_DEPTH_TYPE                         uint32_t

typedef void (* TaskFunction_t)( void * );

#define pdMS_TO_TICKS( xTimeInMs )    ( ( TickType_t ) ( ( ( TickType_t ) ( xTimeInMs ) * ( TickType_t ) configTICK_RATE_HZ ) / ( TickType_t ) 1000U ) )

#define pdFALSE                                  ( ( BaseType_t ) 0 )

#define pdTRUE                                   ( ( BaseType_t ) 1 )

#define pdPASS                                   ( pdTRUE )

#endif
