"""Files at the edge: encounter and case YAML (pydantic models), JSON Schemas, replay output."""
