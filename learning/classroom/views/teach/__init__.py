"""The teacher's pages (/teach/...), one module per feature."""
