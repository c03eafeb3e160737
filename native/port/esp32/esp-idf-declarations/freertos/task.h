/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/freertos/FreeRTOS-Kernel/include/freertos/task.h
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_FREERTOS_TASK_H
#define TESSERA_API_FREERTOS_TASK_H

#include "freertos/FreeRTOS.h"

#define tskDEFAULT_INDEX_TO_NOTIFY     ( 0 )

typedef struct tskTaskControlBlock * TaskHandle_t;

typedef enum
{
    eNoAction = 0,            /**< Notify the task without updating its notify value. */
    eSetBits,                 /**< Set bits in the task's notification value. */
    eIncrement,               /**< Increment the task's notification value. */
    eSetValueWithOverwrite,   /**< Set the task's notification value to a specific value even if the previous value has not yet been read by the task. */
    eSetValueWithoutOverwrite /**< Set the task's notification value if the previous value has been read by the task. */
} eNotifyAction;

#define tskIDLE_PRIORITY    ( ( UBaseType_t ) 0U )

#define tskNO_AFFINITY      ( ( BaseType_t ) 0x7FFFFFFF )

    BaseType_t xTaskCreate( TaskFunction_t pxTaskCode,
                            const char * const pcName, /*lint !e971 Unqualified char types are allowed for strings and single characters only. */
                            const configSTACK_DEPTH_TYPE usStackDepth,
                            void * const pvParameters,
                            UBaseType_t uxPriority,
                            TaskHandle_t * const pxCreatedTask );

void vTaskDelete( TaskHandle_t xTaskToDelete );

void vTaskDelay( const TickType_t xTicksToDelay );

BaseType_t xTaskGenericNotify( TaskHandle_t xTaskToNotify,
                               UBaseType_t uxIndexToNotify,
                               uint32_t ulValue,
                               eNotifyAction eAction,
                               uint32_t * pulPreviousNotificationValue );

#define xTaskNotifyGive( xTaskToNotify ) \
    xTaskGenericNotify( ( xTaskToNotify ), ( tskDEFAULT_INDEX_TO_NOTIFY ), ( 0 ), eIncrement, NULL )

uint32_t ulTaskGenericNotifyTake( UBaseType_t uxIndexToWaitOn,
                                  BaseType_t xClearCountOnExit,
                                  TickType_t xTicksToWait );

#define ulTaskNotifyTake( xClearCountOnExit, xTicksToWait ) \
    ulTaskGenericNotifyTake( ( tskDEFAULT_INDEX_TO_NOTIFY ), ( xClearCountOnExit ), ( xTicksToWait ) )

TaskHandle_t xTaskGetCurrentTaskHandle( void );

#endif
