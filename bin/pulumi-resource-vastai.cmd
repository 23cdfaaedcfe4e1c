@echo off
rem pulumi-resource-vastai on Windows, where Pulumi runs a plugin's .exe or .cmd, never a sh script:
rem the sh launcher's twin, with node on PATH or the node PULUMI_VASTAI_NODE names.
setlocal
set "root=%~dp0"
if not exist "%root%dist\provider\plugin\main.js" set "root=%~dp0..\"
set "node=%PULUMI_VASTAI_NODE%"
if "%node%"=="" set "node=node"
"%node%" "%root%dist\provider\plugin\main.js" %*
