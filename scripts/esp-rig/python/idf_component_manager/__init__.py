"""A stand-in for the two calls ESP-IDF 5.3's build makes into the IDF Component Manager (interfaces 2 and 3).

The rig has no Python registry, so the registry components the app's manifests name are laid out as
plain components in $TESSERA_ESP_COMPONENTS (scripts/esp-rig/idf.sh, named namespace__name as the
manager names them); this module only tells ESP-IDF's CMake where they are and adds them to the
requirements of the components whose idf_component.yml names them. It downloads and resolves nothing.
"""
