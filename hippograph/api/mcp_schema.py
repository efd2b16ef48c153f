"""JSON Schemas of the MCP tools, derived from their GraphQL documents and the schema.

A tool's input schema is its document's variables (less the ones the server fills in), its
output schema the document's selection: both follow the GraphQL API by construction instead
of being written a second time. Enums are their GraphQL names (``FACT``, ``RELATES_TO``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLScalarType,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    Undefined,
    ast_from_value,
    parse,
    type_from_ast,
    value_from_ast_untyped,
)

JSONSchema = dict[str, Any]
_SCALARS: dict[str, JSONSchema] = {
    "String": {"type": "string"},
    "ID": {"type": "string"},
    "Int": {"type": "integer"},
    "Float": {"type": "number"},
    "Boolean": {"type": "boolean"},
    "JSON": {},
}


def input_schema(schema: GraphQLSchema, document: str, *, omit: Collection[str] = ()) -> JSONSchema:
    """The object of ``document``'s variables, less ``omit``: required when non-null with no
    default, with the document's default otherwise."""
    operation = _operation(document)
    properties: dict[str, JSONSchema] = {}
    required: list[str] = []
    for definition in operation.variable_definitions or ():
        name = definition.variable.name.value
        if name in omit:
            continue
        gql_type = cast("GraphQLInputType | None", type_from_ast(schema, definition.type))
        if gql_type is None:
            raise LookupError(f"${name}: unknown type in the tool's document")
        if definition.default_value is not None:
            # Omitted, it takes the default; an explicit null would not (the field is non-null).
            nullable = gql_type.of_type if isinstance(gql_type, GraphQLNonNull) else gql_type
            prop = _input_inner(nullable)
            prop["default"] = value_from_ast_untyped(definition.default_value)
        else:
            prop = _input(gql_type)
            if isinstance(gql_type, GraphQLNonNull):
                required.append(name)
        properties[name] = prop
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def output_schema(schema: GraphQLSchema, document: str) -> JSONSchema:
    """The shape of the ``data`` object ``document`` returns (aliases as keys)."""
    ast = parse(document)
    fragments = {d.name.value: d for d in ast.definitions if isinstance(d, FragmentDefinitionNode)}
    operation = _operation(document)
    root = schema.get_root_type(operation.operation)
    if root is None:
        raise LookupError(f"the schema has no {operation.operation.value} type")
    return _object(root, operation.selection_set, fragments)


def _operation(document: str) -> OperationDefinitionNode:
    operations = [d for d in parse(document).definitions if isinstance(d, OperationDefinitionNode)]
    if len(operations) != 1:
        raise ValueError("a tool's document holds exactly one operation")
    return operations[0]


def _nullable(inner: JSONSchema) -> JSONSchema:
    return {"anyOf": [inner, {"type": "null"}]}


def _input(gql_type: GraphQLInputType) -> JSONSchema:
    if isinstance(gql_type, GraphQLNonNull):
        return _input_inner(gql_type.of_type)
    return _nullable(_input_inner(gql_type))


def _input_inner(gql_type: GraphQLInputType) -> JSONSchema:
    if isinstance(gql_type, GraphQLList):
        return {"type": "array", "items": _input(gql_type.of_type)}
    if isinstance(gql_type, GraphQLInputObjectType):
        properties: dict[str, JSONSchema] = {}
        required: list[str] = []
        for name, f in gql_type.fields.items():
            prop = _input(f.type)
            if f.description:
                prop["description"] = f.description
            if f.default_value is not Undefined:
                default = ast_from_value(f.default_value, f.type)
                if default is not None:
                    prop["default"] = value_from_ast_untyped(default)
            elif isinstance(f.type, GraphQLNonNull):
                required.append(name)
            properties[name] = prop
        out: JSONSchema = {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }
        if gql_type.description:
            out["description"] = gql_type.description
        return out
    return _leaf(gql_type)


def _leaf(gql_type: Any) -> JSONSchema:
    if isinstance(gql_type, GraphQLEnumType):
        return {"type": "string", "enum": list(gql_type.values)}
    if isinstance(gql_type, GraphQLScalarType):
        return dict(_SCALARS[gql_type.name])
    raise TypeError(f"no JSON Schema for GraphQL type {gql_type}")


def _output(
    gql_type: GraphQLOutputType,
    selection: SelectionSetNode | None,
    fragments: dict[str, FragmentDefinitionNode],
) -> JSONSchema:
    if isinstance(gql_type, GraphQLNonNull):
        return _output_inner(gql_type.of_type, selection, fragments)
    return _nullable(_output_inner(gql_type, selection, fragments))


def _output_inner(
    gql_type: GraphQLOutputType,
    selection: SelectionSetNode | None,
    fragments: dict[str, FragmentDefinitionNode],
) -> JSONSchema:
    if isinstance(gql_type, GraphQLList):
        return {"type": "array", "items": _output(gql_type.of_type, selection, fragments)}
    if isinstance(gql_type, GraphQLObjectType):
        if selection is None:
            raise ValueError(f"{gql_type.name} needs a selection")
        return _object(gql_type, selection, fragments)
    return _leaf(gql_type)


def _object(
    gql_type: GraphQLObjectType,
    selection: SelectionSetNode,
    fragments: dict[str, FragmentDefinitionNode],
) -> JSONSchema:
    properties: dict[str, JSONSchema] = {}
    for node in _fields(selection, fragments):
        gql_field = gql_type.fields[node.name.value]
        prop = _output(gql_field.type, node.selection_set, fragments)
        if gql_field.description:
            prop["description"] = gql_field.description
        properties[node.alias.value if node.alias else node.name.value] = prop
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _fields(
    selection: SelectionSetNode, fragments: dict[str, FragmentDefinitionNode]
) -> list[FieldNode]:
    found: list[FieldNode] = []
    for node in selection.selections:
        if isinstance(node, FieldNode):
            found.append(node)
        elif isinstance(node, FragmentSpreadNode):
            found += _fields(fragments[node.name.value].selection_set, fragments)
        elif isinstance(node, InlineFragmentNode):
            found += _fields(node.selection_set, fragments)
    return found
